// The inspector page (/__mock/ui) in headless Chromium, driven as a person would: by the names of
// its tables, buttons and fields. A deposit made through the v1 client is paid from the page's
// transaction form and confirmed by advancing the clock from the page; it turns `paid` and its
// signed deposit.paid delivery appears. Orders made through the v3 client: one is paid by forcing
// the machine's event from the page, the other expires when the page advances the clock past the
// payment window. A failed delivery is retried from the page and delivered. A mock with an admin
// token has the page ask for it. A page of another origin cannot frame the inspector.
// Screenshots (and one of each failing test) go to test-artifacts/e2e/.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { beforeEach, expect, it } from 'vitest';
import { orderMachine } from '../../generated/machines.js';
import { inboxUrlOf, startTestServer, type TestServer } from '../mock-server/support/server.js';
import { newSite } from '../mock-server/support/sites.js';
import { describeInBrowser, openPage, screenshot } from './support/browser.js';
import { useInspectorPage } from './support/inspector-page.js';

describeInBrowser('the inspector page in a browser', () => {
  const suite = useInspectorPage(2026);
  let server: TestServer;
  let page: Page;
  beforeEach(() => {
    ({ server, page } = suite);
  });

  async function siteClient() {
    return (await newSite(server, { name: 'E2E shop', callback_url: inboxUrlOf(server) })).v1;
  }

  const table = (name: string) => page.getByRole('table', { name: new RegExp(`^${name}\\b`) });
  const rowOf = (tableName: string, text: string) => table(tableName).getByRole('row').filter({ hasText: text });
  const status = (row: Locator, value: string) => row.locator('.status').getByText(value, { exact: true });

  it('pays a deposit from the transaction form, confirms it by advancing the clock, and shows its webhook', async () => {
    const v1 = await siteClient();
    const deposit = (await v1.createDeposit({ body: { order_id: 'E2E-DEP-1', asset: 'USDT_TRON', amount: '150.00' } })).body.data;

    const row = rowOf('Deposits', 'E2E-DEP-1');
    await status(row, 'waiting').waitFor();
    await row.getByRole('button', { name: 'Pay deposit E2E-DEP-1' }).click();
    expect(await page.getByRole('textbox', { name: 'Address', exact: true }).inputValue()).toBe(deposit.address);
    expect(await page.getByRole('textbox', { name: 'Amount', exact: true }).inputValue()).toBe('150.00');
    await page.getByRole('button', { name: 'Inject transaction' }).click();
    await page.getByRole('status').getByText(`credited to deposit ${deposit.uuid}`).waitFor();
    await status(row, 'confirming').waitFor();
    await screenshot(page, 'deposit-confirming');

    // TRON needs 20 confirmations of 3-second blocks: two virtual minutes give 40.
    await page.getByLabel('Seconds to advance').fill('120');
    await page.getByRole('button', { name: 'Advance clock' }).click();
    await status(row, 'paid').waitFor();
    expect(await row.textContent()).toContain('40 / 20');

    const delivery = rowOf('Webhook deliveries', 'deposit.paid');
    await status(delivery, 'delivered').waitFor();
    expect(await delivery.textContent()).toContain('✓ valid');
    await delivery.getByText('Show').click();
    await delivery.getByText('HTTP 204').waitFor();
    expect(await delivery.textContent()).toContain(deposit.uuid);
    await screenshot(page, 'deposit-paid');

    expect((await v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data.status).toBe('paid');
  });

  /** A crypto route to an ETH address that needs nothing but `to_address`, and an amount it takes. */
  async function plainRoute(): Promise<{ routeId: number; amount: string }> {
    const routes = (await server.v3.listRoutes()).body.result.routes;
    for (const route of routes) {
      if (route.to.network !== 'ETH' || !route.is_enabled) continue;
      const { capabilities } = (await server.v3.getRouteCapabilities({ path: { route: route.id } })).body.result;
      const { requisites, requires_verification } = capabilities;
      if (requisites?.from?.length === 0 && requisites.to?.join() === 'to_address' && !requires_verification?.identity && !requires_verification?.card) {
        return { routeId: route.id, amount: route.limits.min_give };
      }
    }
    throw new Error('the catalog has no crypto route to ETH that needs only to_address');
  }

  it('forces an order event from the page, and expires an unpaid order by advancing the clock past its payment window', async () => {
    const { routeId, amount } = await plainRoute();
    const create = async () =>
      (await server.v3.createOrder({ body: { route_id: routeId, amount, email: 'e2e@example.com', requisites: { to_address: '0x52908400098527886E0F7030069857D2E4169EE7' } } })).body.result.order;
    const unpaid = await create();
    const paid = await create();

    const unpaidRow = rowOf('Orders', unpaid.public_id);
    const paidRow = rowOf('Orders', paid.public_id);
    await status(unpaidRow, 'awaiting_payment').waitFor();
    await paidRow.getByRole('combobox', { name: `Event for order ${paid.id}` }).selectOption('pay');
    await paidRow.getByRole('button', { name: `Force event on order ${paid.id}` }).click();
    await page.getByRole('status').getByText(`Order ${paid.id}: awaiting_payment → pay → paid.`).waitFor();
    await status(paidRow, 'paid').waitFor();

    const windowSeconds = orderMachine.timers.payment_window?.seconds ?? 0;
    await page.getByLabel('Seconds to advance').fill(String(windowSeconds + 1));
    await page.getByRole('button', { name: 'Advance clock' }).click();
    await status(unpaidRow, 'expired').waitFor();
    await status(paidRow, 'paid').waitFor();
    await rowOf('Webhook events', 'order.status_changed').first().waitFor();
    await screenshot(page, 'order-expired');

    expect((await server.v3.getExchangeOrder({ path: { order: String(unpaid.id) } })).body.result.order.status).toBe('expired');
  });

  it('retries a failed delivery from the page', async () => {
    const v1 = await siteClient();
    await server.control.setWebhookFault({ body: { url: inboxUrlOf(server), status: 503 } });
    // The site test webhook makes one attempt and never retries on its own.
    const sent = (await v1.sendSiteTestWebhook()).body.data;
    await page.getByRole('button', { name: 'Send due webhooks' }).click();

    const row = rowOf('Webhook deliveries', sent.deliveryId);
    await status(row, 'failed').waitFor();
    await row.getByText('Show').click();
    await row.getByText('HTTP 503').waitFor();
    await screenshot(page, 'delivery-failed');

    await server.control.clearWebhookFaults();
    await row.getByRole('button', { name: `Retry delivery ${sent.deliveryId}` }).click();
    await page.getByRole('status').getByText(`Delivery ${sent.deliveryId} is queued`).waitFor();
    await page.getByRole('button', { name: 'Send due webhooks' }).click();
    await status(row, 'delivered').waitFor();
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('2');
    expect(await row.getByRole('button', { name: /^Retry delivery/ }).count()).toBe(0);
    await screenshot(page, 'delivery-retried');
  });

  it('asks for the admin token of a guarded mock, or takes it from the URL fragment', async () => {
    const guarded = await startTestServer({ adminToken: 'e2e-admin-token-0001' });
    const guardedErrors: string[] = [];
    try {
      const asked = await openPage(suite.browser, `${guarded.url}/__mock/ui/`, guardedErrors);
      await asked.getByRole('region', { name: 'Admin token' }).waitFor();
      await asked.getByRole('textbox', { name: 'Admin token' }).fill('e2e-admin-token-0001');
      await asked.getByRole('button', { name: 'Use token' }).click();
      await asked.getByRole('table', { name: /^Deposits \(0\)/ }).waitFor();
      expect(await asked.getByRole('region', { name: 'Admin token' }).isHidden()).toBe(true);
      await asked.close();

      const given = await openPage(suite.browser, `${guarded.url}/__mock/ui/#token=e2e-admin-token-0001`, guardedErrors);
      await given.getByRole('table', { name: /^Deposits \(0\)/ }).waitFor();
      expect(new URL(given.url()).hash).toBe('');
      await given.close();
    } finally {
      await guarded.close();
    }
    // The only failures the browser saw are the 401s that made the page ask.
    expect(guardedErrors.every((e) => e.includes('401'))).toBe(true);
  });

  // Clickjacking: a page of another origin framing the inspector under a decoy would have the
  // operator click its buttons (the framed page is the mock's origin, so its calls pass).
  it('cannot be framed by a page of another origin', async () => {
    const decoy = createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end(`<!doctype html><p>Win a prize: click below</p><iframe id="target" src="${server.url}/__mock/ui/"></iframe>`);
    });
    await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
    const framing = await suite.browser.newPage();
    try {
      // The frame's first navigation: the inspector, or the browser's error page when refused.
      const navigated = framing.waitForEvent('framenavigated', (frame) => frame !== framing.mainFrame());
      await framing.goto(`http://127.0.0.1:${(decoy.address() as AddressInfo).port}/`);
      expect((await navigated).url()).not.toContain('/__mock/ui/');
    } finally {
      await framing.close();
      await new Promise((resolve) => decoy.close(resolve));
    }
  });
});
