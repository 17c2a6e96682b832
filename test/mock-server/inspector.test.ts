// The control API's Inspector room and the operator's retry, over real HTTP (strict mode) with
// the generated clients: getInspectorState shows every site's and client's records newest first,
// as their own APIs present them, bounded by `limit` with true counts, and reading it changes
// nothing (no AML provider request); forceWebhookRetry retries a failed delivery of any owner,
// refuses one that is not failed with the machine's reason and an unknown one with 404. The page
// itself is served at /__mock/ui, open to load, while its data stays behind the admin token.
import { describe, expect, it } from 'vitest';
import { webhookDeliveryMachine } from '../../generated/machines.js';
import { sandboxControlSecuritySchemes } from '../../generated/sandbox-control/contract-data.js';
import { expectContractBody } from './support/contract.js';
import { placeOrder } from './orders-helpers.js';
import { failure } from './support/failure.js';
import { send } from './support/http.js';
import { inboxUrlOf, startTestServer, useFrozenSandbox, type TestServer } from './support/server.js';
import { newSite } from './support/sites.js';

let server: TestServer;
useFrozenSandbox({ seed: 31 }, (started) => {
  server = started;
});

async function state(limit?: number) {
  const response = await server.control.getInspectorState({ query: limit === undefined ? {} : { limit } });
  expectContractBody('control', 'getInspectorState', response.status, response.body);
  return response.body.result;
}

const siteClient = (callbackUrl: string | null) => newSite(server, { callback_url: callbackUrl });

/** A site test webhook (one attempt, no automatic retry) answered with 500: its delivery fails. */
async function failedDelivery(): Promise<{ deliveryId: string; owner: string }> {
  const inbox = inboxUrlOf(server);
  const { site, v1 } = await siteClient(inbox);
  await server.control.setWebhookFault({ body: { url: inbox, status: 500 } });
  const sent = (await v1.sendSiteTestWebhook()).body.data;
  await server.control.runDueWebhooks();
  await server.control.clearWebhookFaults();
  return { deliveryId: sent.deliveryId, owner: `site:${site.id}` };
}

describe('getInspectorState', () => {
  it('starts empty, with the clock', async () => {
    const snapshot = await state();
    expect(snapshot.counts).toEqual({ orders: 0, deposits: 0, static_addresses: 0, aml_checks: 0, webhook_events: 0, webhook_deliveries: 0, upload_intents: 0, verifications: 0 });
    expect(snapshot.deposits).toEqual([]);
    expect(snapshot.clock.frozen).toBe(true);
    expect(snapshot.clock.now).toBe((await server.control.getClock()).body.result.now);
  });

  it("shows every site's deposits and static addresses newest first, as v1 presents them, at most `limit` with the true count", async () => {
    const first = await siteClient(null);
    const second = await siteClient(null);
    const a = (await first.v1.createDeposit({ body: { order_id: 'A', asset: 'USDT_TRON', amount: '10.00' } })).body.data;
    await server.control.advanceClock({ body: { seconds: 1 } });
    const b = (await second.v1.createDeposit({ body: { order_id: 'B', asset: 'USDT_TRON', amount: '20.00' } })).body.data;
    await server.control.advanceClock({ body: { seconds: 1 } });
    const c = (await first.v1.createDeposit({ body: { order_id: 'C', asset: 'USDT_TRON' } })).body.data;
    const fixed = (await second.v1.createStaticAddress({ body: { orderId: 'S-1', asset: 'USDT_TRON' } })).body.data;

    const all = await state();
    expect(all.deposits.map((d) => d.uuid)).toEqual([c.uuid, b.uuid, a.uuid]);
    expect(all.deposits[1]).toEqual((await second.v1.getDeposit({ path: { uuid: b.uuid } })).body.data);
    expect(all.static_addresses).toEqual([fixed]);

    const limited = await state(2);
    expect(limited.deposits.map((d) => d.uuid)).toEqual([c.uuid, b.uuid]);
    expect(limited.counts).toMatchObject({ deposits: 3, static_addresses: 1 });
  });

  it("shows every client's orders newest first, as v3 presents them", async () => {
    const mine = await placeOrder(server);
    await server.control.advanceClock({ body: { seconds: 1 } });
    const theirs = await placeOrder(server, {}, { clientId: String((await server.control.mintToken({ body: {} })).body.result.key.client.id) });

    const snapshot = await state();
    expect(snapshot.orders.map((o) => o.id)).toEqual([theirs.id, mine.id]);
    expect(snapshot.orders[1]).toEqual((await server.v3.getExchangeOrder({ path: { order: String(mine.id) } })).body.result.order);
    expect(snapshot.counts.orders).toBe(2);
  });

  it('shows a deposit as its time-driven transitions leave it (expired once its lifetime ended)', async () => {
    const { v1 } = await siteClient(null);
    const deposit = (await v1.createDeposit({ body: { order_id: 'E', asset: 'USDT_TRON', amount: '5.00', lifetime: 900 } })).body.data;
    await server.control.advanceClock({ body: { seconds: 901 } });
    expect((await state()).deposits).toMatchObject([{ uuid: deposit.uuid, status: 'expired' }]);
  });

  it('shows AML checks without asking the provider again', async () => {
    const { v1 } = await siteClient(null);
    await server.control.setAmlAnswer({ body: { address: 'TXFBqBbqJommqZf7BV8NNYzePh97UmJodJ', score: 71, level: 'high', delay_seconds: 120 } });
    const check = (await v1.createAmlCheck({ body: { currency: 'USDT', network: 'TRON', address: 'TXFBqBbqJommqZf7BV8NNYzePh97UmJodJ' } })).body.data;
    const calls = (await server.control.getAmlProvider()).body.result.calls;

    const snapshot = await state();
    expect(snapshot.aml_checks).toEqual([check]);
    expect(snapshot.counts.aml_checks).toBe(1);
    expect((await server.control.getAmlProvider()).body.result.calls).toBe(calls);
  });

  it('shows webhook events and deliveries of v3 clients and v1 sites with their owner and signature check', async () => {
    const inbox = inboxUrlOf(server);
    const { site, v1 } = await siteClient(inbox);
    const siteTest = (await v1.sendSiteTestWebhook()).body.data;
    expect((await state()).webhook_deliveries).toMatchObject([
      { id: siteTest.deliveryId, owner: `site:${site.id}`, status: 'pending', attempt: 0, request: null, signature_valid: null },
    ]);
    const endpoint = (await server.v3.createWebhookEndpoint({ body: { name: 'inbox', url: inbox, events: ['order.status_changed'] } })).body.result;
    const v3Test = (await server.v3.sendTestWebhook({ body: { endpoint_id: endpoint.endpoint.id } })).body.result;
    const [v3Delivery] = v3Test.deliveries;

    await server.control.runDueWebhooks();
    const sent = await state();
    expect(sent.webhook_deliveries.map((d) => d.id)).toEqual([v3Delivery?.id, siteTest.deliveryId]);
    expect(sent.counts).toMatchObject({ webhook_events: 2, webhook_deliveries: 2 });
    expect(sent.webhook_events.map((e) => e.id)).toEqual([v3Test.event.id, siteTest.eventId]);
    expect(sent.webhook_events[0]).toMatchObject({ owner: String(server.sandbox.defaultKey.client.id), type: v3Test.event.type, status: 'delivered' });
    const [v3Sent] = sent.webhook_deliveries;
    const { signature_valid, owner, resource, not_sent, ...presented } = v3Sent ?? {};
    expect({ signature_valid, owner, not_sent }).toEqual({ signature_valid: true, owner: String(server.sandbox.defaultKey.client.id), not_sent: null });
    expect(resource).toEqual(sent.webhook_events[0]?.resource);
    expect(presented).toEqual((await server.v3.getWebhookDelivery({ path: { delivery: v3Delivery?.id ?? '' } })).body.result.delivery);
    expect(sent.webhook_deliveries[1]).toMatchObject({ status: 'delivered', attempt: 1, signature_valid: true });
  });

  it('tells a signature made with a secret since rotated from a valid one', async () => {
    const inbox = inboxUrlOf(server);
    const endpoint = (await server.v3.createWebhookEndpoint({ body: { name: 'inbox', url: inbox, events: ['order.status_changed'] } })).body.result.endpoint;
    await server.v3.sendTestWebhook({ body: { endpoint_id: endpoint.id } });
    await server.control.runDueWebhooks();
    await server.v3.rotateWebhookSecret({ path: { webhook: endpoint.id } });
    expect((await state()).webhook_deliveries).toMatchObject([{ signature_valid: false }]);
  });

  it('refuses a limit outside the contract', async () => {
    const error = await failure(server.control.getInspectorState({ query: { limit: 0 } }));
    expect(error.status).toBe(422);
    expect(error.code).toBe('validation_error');
  });
});

describe('forceWebhookRetry', () => {
  it("retries a failed delivery of a v1 site (queued, due now); the next dispatch delivers it", async () => {
    const { deliveryId, owner } = await failedDelivery();
    expect((await state()).webhook_deliveries).toMatchObject([{ id: deliveryId, owner, status: 'failed', attempt: 1 }]);

    const response = await server.control.forceWebhookRetry({ path: { delivery: deliveryId } });
    expectContractBody('control', 'forceWebhookRetry', response.status, response.body);
    expect(response.body.result.delivery).toMatchObject({ id: deliveryId, status: 'queued', attempt: 1 });

    await server.control.runDueWebhooks();
    expect((await state()).webhook_deliveries).toMatchObject([{ id: deliveryId, status: 'delivered', attempt: 2, signature_valid: true }]);
  });

  it("refuses a delivery that is not failed with the machine's reason, and an unknown one with 404", async () => {
    const { v1 } = await siteClient(inboxUrlOf(server));
    const sent = (await v1.sendSiteTestWebhook()).body.data;
    const conflict = await failure(server.control.forceWebhookRetry({ path: { delivery: sent.deliveryId } }));
    expect(conflict.status).toBe(409);
    expect(conflict.code).toBe('invalid_state_transition');
    expect(conflict.details.event?.[0]).toMatch(/pending/);

    const unknown = await failure(server.control.forceWebhookRetry({ path: { delivery: '0b7e1f3c-5a2d-4c8e-9f6a-1d2c3b4a5e6f' } }));
    expect(unknown.status).toBe(404);
    expect(unknown.code).toBe('not_found');
  });
});

describe('the inspector page', () => {
  it('is served at /__mock/ui with its config from the contracts', async () => {
    const html = await send(server.url, '/__mock/ui/');
    expect(html.status).toBe(200);
    expect(html.text).toContain('<h1>Mock inspector</h1>');
    const config = (await send(server.url, '/__mock/ui/config.json')).json as {
      adminTokenHeader: string;
      operations: Record<string, { path: string }>;
      retryableDeliveryStatuses: string[];
      kinds: Record<string, { statuses: string[] }>;
    };
    expect(config.adminTokenHeader).toBe(sandboxControlSecuritySchemes.adminToken.name);
    expect(config.operations.listInspectorRecords?.path).toBe('/__mock/inspector/records/{kind}');
    expect(config.kinds.webhook_deliveries?.statuses).toEqual(webhookDeliveryMachine.states);
    expect(config.kinds.static_addresses?.statuses).toEqual(['active', 'disabled']);
    expect(config.retryableDeliveryStatuses).toEqual(['failed']);
    const bare = await fetch(`${server.url}/__mock/ui`, { redirect: 'manual' });
    expect(bare.headers.get('location')).toBe('/__mock/ui/');
  });

  // Tenants put strings into all it shows and it drives every tenant's records: no script but its
  // own may run, no page of another origin may frame it (clickjacking its buttons), no sniffing.
  it.each(['/__mock/ui/', '/__mock/ui/inspector.js', '/__mock/ui/config.json'])('%s runs only its own scripts and cannot be framed', async (path) => {
    const response = await send(server.url, path);
    expect(response.status).toBe(200);
    const policy = (response.headers.get('content-security-policy') ?? '').split(/;\s*/);
    expect(policy).toEqual(expect.arrayContaining(["default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"]));
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('loads without the admin token, while the state it shows needs it', async () => {
    const guarded = await startTestServer({ adminToken: 'inspector-admin-token' });
    try {
      expect((await send(guarded.url, '/__mock/ui/')).status).toBe(200);
      expect((await send(guarded.url, '/__mock/inspector/state')).status).toBe(401);
      const header = sandboxControlSecuritySchemes.adminToken.name;
      expect((await send(guarded.url, '/__mock/inspector/state', { headers: { [header]: 'inspector-admin-token' } })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it('is not served when the control API is off', async () => {
    const closed = await startTestServer({ control: false });
    try {
      expect((await send(closed.url, '/__mock/ui/')).status).toBe(404);
    } finally {
      await closed.close();
    }
  });
});
