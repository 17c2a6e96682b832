// /docs in headless Chromium: Swagger UI renders each contract's operations with every request
// going to the mock itself (offline: no CDN, no online validator), and the state machines page
// shows its tables. Screenshots are kept in test-artifacts/e2e/.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { machines } from '../../generated/machines.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { describeInBrowser, launchBrowser, screenshot } from '../e2e/support/browser.js';

describeInBrowser('/docs in a browser', () => {
  let mock: RunningMockServer;
  let browser: Browser;
  beforeAll(async () => {
    [mock, browser] = await Promise.all([startMockServer({ port: 0 }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await mock?.close();
  });

  /** Opens a page, recording every URL it requests and every script error. */
  async function open(path: string): Promise<{ page: Page; requested: string[]; errors: string[] }> {
    const requested: string[] = [];
    const errors: string[] = [];
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(15_000);
    page.on('request', (request) => requested.push(request.url()));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${mock.url}${path}`);
    return { page, requested, errors };
  }

  const elsewhere = (urls: string[]) => urls.filter((url) => !url.startsWith(`${mock.url}/`) && !url.startsWith('data:'));

  it.each(['exchange-v3', 'deposit-v1', 'sandbox-control'])('the %s reference renders its operations, loading nothing from elsewhere', async (contract) => {
    const { page, requested, errors } = await open(`/docs/${contract}`);
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(3);
    await screenshot(page, `docs-${contract}`);
    expect(errors).toEqual([]);
    expect(requested).toContain(`${mock.url}/docs/specs/${contract}.json`);
    expect(elsewhere(requested)).toEqual([]);
    await page.close();
  });

  it('the state machines page shows one transition table per machine', async () => {
    const { page, requested } = await open('/docs/machines');
    expect(await page.locator('section h2').count()).toBe(Object.keys(machines).length);
    await screenshot(page, 'docs-machines');
    expect(elsewhere(requested)).toEqual([]);
    await page.close();
  });
});
