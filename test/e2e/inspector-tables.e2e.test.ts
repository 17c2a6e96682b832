// The inspector page's tables in headless Chromium, driven by their names as a person would: a
// search box, a status filter and a pager per table (past the first 50 rows); webhook deliveries
// with their resource, and those to a site without a callback URL shown as never sent, hidden by
// default and counted; upload intents and verifications; the faults in force, removable from the
// page. Screenshots (and one of each failing test) go to test-artifacts/e2e/.
import type { Page } from 'playwright-core';
import { beforeEach, expect, it } from 'vitest';
import { inboxUrlOf, type TestServer } from '../mock-server/support/server.js';
import { newSite } from '../mock-server/support/sites.js';
import { uploaded } from '../mock-server/uploads-helpers.js';
import { describeInBrowser, screenshot } from './support/browser.js';
import { useInspectorPage } from './support/inspector-page.js';

describeInBrowser('the inspector tables in a browser', () => {
  const suite = useInspectorPage(2208);
  let server: TestServer;
  let page: Page;
  beforeEach(() => {
    ({ server, page } = suite);
  });

  const siteClient = (callbackUrl: string | null) => newSite(server, { name: 'E2E tables', callback_url: callbackUrl });

  const table = (name: string) => page.getByRole('table', { name: new RegExp(`^${name}\\b`) });
  const bodyRows = (name: string) => table(name).locator('tbody tr');
  const rowOf = (tableName: string, text: string) => table(tableName).getByRole('row').filter({ hasText: text });

  it('pages past 50 rows, searches any value and filters by status', async () => {
    const { v1 } = await siteClient(null);
    for (let i = 1; i <= 55; i += 1) await v1.createDeposit({ body: { order_id: `E2E-PAGE-${i}`, asset: 'USDT_TRON', amount: '1.00', lifetime: i <= 3 ? 900 : 3600 } });

    await page.getByRole('table', { name: /^Deposits \(55\)/ }).waitFor();
    await page.getByText('Rows 1–50 of 55 · page 1 of 2').waitFor();
    expect(await bodyRows('Deposits').count()).toBe(50);
    await page.getByRole('button', { name: 'Next page of Deposits' }).click();
    await page.getByText('Rows 51–55 of 55 · page 2 of 2').waitFor();
    expect(await bodyRows('Deposits').count()).toBe(5);
    expect(await page.getByRole('button', { name: 'Next page of Deposits' }).isDisabled()).toBe(true);
    await screenshot(page, 'tables-second-page');

    await page.getByRole('searchbox', { name: 'Search Deposits' }).fill('e2e-page-42');
    await page.getByRole('table', { name: /^Deposits \(1\)/ }).waitFor();
    expect(await bodyRows('Deposits').first().textContent()).toContain('E2E-PAGE-42');

    // The first three have a 900 s lifetime: advancing past it expires them alone.
    await page.getByRole('searchbox', { name: 'Search Deposits' }).fill('');
    await page.getByLabel('Seconds to advance').fill('901');
    await page.getByRole('button', { name: 'Advance clock' }).click();
    await page.getByRole('combobox', { name: 'Status of Deposits' }).selectOption('expired');
    await page.getByRole('table', { name: /^Deposits \(3\)/ }).waitFor();
    expect((await bodyRows('Deposits').allTextContents()).map((row) => /E2E-PAGE-\d+/.exec(row)?.[0]).sort()).toEqual(['E2E-PAGE-1', 'E2E-PAGE-2', 'E2E-PAGE-3']);
    await screenshot(page, 'tables-filtered');
  });

  it("shows a delivery's resource, and one to a site without a callback URL as never sent, hidden until asked for", async () => {
    const silent = await siteClient(null);
    const heard = await siteClient(inboxUrlOf(server));
    const unsent = (await silent.v1.sendSiteTestWebhook()).body.data;
    const sent = (await heard.v1.sendSiteTestWebhook()).body.data;
    await page.getByRole('button', { name: 'Send due webhooks' }).click();

    const delivered = rowOf('Webhook deliveries', sent.deliveryId);
    await delivered.locator('.status').getByText('delivered', { exact: true }).waitFor();
    expect(await delivered.getByRole('cell').nth(5).textContent()).toBe(`site ${heard.site.id}`);
    expect(await rowOf('Webhook deliveries', unsent.deliveryId).count()).toBe(0);
    await page.getByText('1 never sent (site without a callback URL) not shown.').waitFor();

    await page.getByRole('combobox', { name: 'Webhook deliveries never sent' }).selectOption('only');
    const never = rowOf('Webhook deliveries', unsent.deliveryId);
    await never.getByText('not sent · no callback URL').waitFor();
    expect(await never.getByText('pending', { exact: true }).count()).toBe(0);
    expect(await rowOf('Webhook deliveries', sent.deliveryId).count()).toBe(0);
    await rowOf('Webhook events', unsent.eventId).getByText('not sent · no callback URL').waitFor();
    await screenshot(page, 'tables-never-sent');
  });

  it("shows every client's upload intents and verifications", async () => {
    const passport = await uploaded(server.v3, { purpose: 'identity_verification', field_key: 'passport' });
    const selfie = await uploaded(server.v3, { purpose: 'identity_verification', field_key: 'selfie' });
    const verification = (
      await server.v3.createIdentityVerification({ body: { documents: [{ upload_intent: passport.uuid, kind: 'passport' }, { upload_intent: selfie.uuid, kind: 'selfie' }] } })
    ).body.result.verification;

    const intent = rowOf('Upload intents', passport.uuid);
    await intent.locator('.status').getByText('consumed', { exact: true }).waitFor();
    expect(await intent.textContent()).toContain('photo.jpg');
    const row = rowOf('Verifications', verification.id);
    await row.locator('.status').getByText('in_review', { exact: true }).waitFor();
    expect(await row.textContent()).toContain('passport, selfie');
    await screenshot(page, 'tables-uploads-verifications');
  });

  it('lists the faults in force and removes one from the page', async () => {
    const fault = (await server.control.injectFault({ body: { operation: 'createOrder', key_id: 1, times: 2, error: { status: 429 } } })).body.result.fault;
    const row = rowOf('Faults in force', 'createOrder');
    await row.getByText('answer 429 rate_limit_exceeded').waitFor();
    expect(await row.textContent()).toContain('the next 2');
    await screenshot(page, 'tables-faults');

    await row.getByRole('button', { name: `Remove fault ${fault.id}` }).click();
    await page.getByRole('status').getByText(`Fault ${fault.id} on createOrder removed.`).waitFor();
    await page.getByRole('table', { name: /^Faults in force \(0\)/ }).waitFor();
    expect((await server.control.listFaults()).body.result.faults).toEqual([]);
  });
});
