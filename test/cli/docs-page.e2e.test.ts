// /docs in headless Chromium: Swagger UI renders each contract's operations with every request
// going to the mock itself (offline: no CDN, no online validator), and the state machines page
// shows its tables. The deposit v1 page's "Try it out" is signed by the mock: as the default
// site, as a site typed into its panel (a wrong secret gets the API's 401), and on a mock with an
// admin token once the token is given. Screenshots are kept in test-artifacts/e2e/.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { machines } from '../../generated/machines.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { mockClients } from '../../index.js';
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
    // The pages' own code must satisfy their Content-Security-Policy: a violation is a console error.
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().includes('Content Security Policy')) errors.push(message.text());
    });
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
    const { page, requested, errors } = await open('/docs/machines');
    expect(await page.locator('section h2').count()).toBe(Object.keys(machines).length);
    await screenshot(page, 'docs-machines');
    expect(errors).toEqual([]);
    expect(elsewhere(requested)).toEqual([]);
    await page.close();
  });

  /** Runs listAssets from the deposit v1 page's "Try it out"; the status the API answered. */
  async function tryListAssets(page: Page): Promise<string> {
    const operation = page.locator('#operations-Assets-listAssets');
    if (!(await operation.locator('.try-out__btn').isVisible())) await operation.locator('.opblock-summary').click();
    const tryOut = operation.getByRole('button', { name: 'Try it out' });
    if (await tryOut.isVisible()) await tryOut.click();
    await operation.locator('.live-responses-table').waitFor({ state: 'detached' }).catch(() => undefined);
    await operation.getByRole('button', { name: 'Execute' }).click();
    const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor();
    const text = ((await status.textContent()) ?? '').trim();
    await operation.getByRole('button', { name: 'Clear' }).click();
    return text;
  }

  it('signs the deposit v1 "Try it out" as the default site, or as a site typed into the page', async () => {
    const { page, errors } = await open('/docs/deposit-v1');
    await page.getByRole('region', { name: 'Signing “Try it out”' }).waitFor();
    await page.locator('#operations-Assets-listAssets').waitFor();
    expect(await tryListAssets(page)).toBe('200');
    await page.getByRole('status').getByText('GET /v1/public/assets signed as the default site.').waitFor();
    await screenshot(page, 'docs-deposit-v1-signed');

    const { site, api_secret } = (await mockClients(mock).control.createSite({ body: { name: 'docs page' } })).body.result;
    await page.getByRole('textbox', { name: 'API key' }).fill(site.api_key);
    await page.getByRole('button', { name: 'Sign with these' }).click();
    expect(await tryListAssets(page)).toBe('200');
    await page.getByRole('status').getByText(`signed as site ${site.api_key}.`).waitFor();

    await page.getByLabel('API secret').fill(`${api_secret}-wrong`);
    await page.getByRole('button', { name: 'Sign with these' }).click();
    expect(await tryListAssets(page)).toBe('401');
    await page.getByRole('button', { name: 'Sign as the default site' }).click();
    expect(await tryListAssets(page)).toBe('200');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('asks for the admin token of a guarded mock before it can sign', async () => {
    const guarded = await startMockServer({ port: 0, adminToken: 'docs-admin-token-0001' });
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    try {
      page.setDefaultTimeout(15_000);
      await page.goto(`${guarded.url}/docs/deposit-v1`);
      await page.locator('#operations-Assets-listAssets').waitFor();
      expect(await tryListAssets(page)).toBe('401');
      await page.getByRole('status').getByText(/Not signed: .* Enter the mock’s admin token above\./).waitFor();
      await page.getByLabel('Admin token').fill('docs-admin-token-0001');
      await page.getByRole('button', { name: 'Sign as the default site' }).click();
      expect(await tryListAssets(page)).toBe('200');
    } finally {
      await page.close();
      await guarded.close();
    }
  });
});
