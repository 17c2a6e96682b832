// Headless Chromium for the end-to-end suites: Debian's `chromium` (never a browser downloaded by
// a test tool) driven by playwright-core, with the flags this kind of machine needs (no sandbox as
// root, no background networking: the network is closed). When the browser is missing the suites
// are skipped with a loud warning, except where it must be present (.ci/run sets
// EXCHANGE_API_KIT_E2E=required after installing it): there a missing browser fails the run.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { describe } from 'vitest';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where screenshots go (a test artifact, ignored by git). */
export const artifactsDir = join(process.cwd(), 'test-artifacts', 'e2e');

/** A browser test waits on a page that polls each second; a loaded machine (the full suite) is slower. */
const browserTestTimeoutMs = 60_000;

/** `describe` when the browser is there; otherwise a loud skip, or a failure where it is required. */
export function describeInBrowser(name: string, body: () => void): void {
  if (existsSync(chromiumPath)) {
    describe(name, { timeout: browserTestTimeoutMs }, body);
    return;
  }
  const reason = `${chromiumPath} is missing: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`;
  if (process.env.EXCHANGE_API_KIT_E2E === 'required') throw new Error(`end-to-end tests required but ${reason}`);
  console.warn(`\n${'!'.repeat(100)}\n!! SKIPPING the end-to-end suite "${name}": ${reason}.\n${'!'.repeat(100)}\n`);
  describe.skip(`${name} (skipped: ${reason})`, body);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
}

/** A new page that records its script errors and failed console messages in `errors`. */
export async function openPage(browser: Browser, url: string, errors: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console error: ${message.text()}`);
  });
  await page.goto(url);
  return page;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
