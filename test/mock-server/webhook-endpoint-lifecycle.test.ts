// The webhook-endpoint machine over HTTP: an endpoint whose deliveries keep failing is disabled
// after the configured number of failed deliveries in a row (one attempt per delivery here, and
// two failures in a row), a success in between starts the count again, the client enables it
// with PATCH, which sends what waited; a v1 site's callback is never disabled; and the health
// report's webhooks block follows the endpoints.
import { describe, expect, it } from 'vitest';
import { createHmacSigner, DepositV1Client, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import type { WebhookEndpoint } from '../../generated/exchange-v3/types.js';
import { placeOrder } from './orders-helpers.js';
import { inboxUrlOf, useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
useFrozenSandbox({ seed: 23, webhookRetrySchedule: [0], webhookFailedDeliveriesLimit: 2 }, (started) => {
  server = started;
});

/** An endpoint of the default client at the inbox, subscribed to order.created. */
async function endpointAtInbox(): Promise<WebhookEndpoint> {
  const created = await server.v3.createWebhookEndpoint({ body: { name: 'Orders', url: inboxUrlOf(server), events: ['order.created'] } });
  return created.body.result.endpoint;
}

/** One order.created event for the default client, sent now (the one attempt of its delivery). */
async function oneEvent(): Promise<void> {
  await placeOrder(server);
  await server.control.runDueWebhooks();
}

const failEveryAttempt = () => server.control.setWebhookFault({ body: { url: inboxUrlOf(server), status: 503 } });
const readEndpoint = async (id: string) => (await server.v3.getWebhookEndpoint({ path: { webhook: id } })).body.result!.endpoint;
const health = async () => (await server.v3.getClientHealth()).body.result.health;
const deliveriesTo = async (id: string) => (await server.v3.listWebhookDeliveries({ query: { 'filter[endpoint_id]': id } })).body.result.deliveries;

describe('the webhook-endpoint machine', () => {
  it('disables an endpoint after two failed deliveries in a row; new events skip it until the client enables it', async () => {
    const endpoint = await endpointAtInbox();
    await failEveryAttempt();
    await oneEvent();
    expect(await readEndpoint(endpoint.id)).toMatchObject({ status: 'active', failure_count: 1 });
    expect(await health()).toMatchObject({ status: 'degraded', webhooks: { endpoints: 1, failing: 1 } });

    await oneEvent();
    const disabled = await readEndpoint(endpoint.id);
    expect(disabled).toMatchObject({ status: 'disabled', failure_count: 2 });
    expect(disabled.updated_at).toBe(server.sandbox.clock.now().toISOString());
    expect(await health()).toMatchObject({ status: 'degraded', webhooks: { endpoints: 1, failing: 1 } });

    // An event while it is disabled makes no delivery to it.
    await oneEvent();
    expect((await deliveriesTo(endpoint.id)).map((d) => d.status)).toEqual(['failed', 'failed']);

    // The receiver is fixed; the client enables the endpoint: both counts start afresh.
    await server.control.clearWebhookFaults();
    const enabled = await server.v3.updateWebhookEndpoint({ path: { webhook: endpoint.id }, body: { status: 'active' } });
    expect(enabled.body.result).toMatchObject({ endpoint: { status: 'active', failure_count: 0 } });
    expect(await health()).toMatchObject({ status: 'ok', webhooks: { endpoints: 1, failing: 0 } });
    await oneEvent();
    expect((await deliveriesTo(endpoint.id)).map((d) => d.status)).toEqual(['failed', 'failed', 'delivered']);
  });

  it('starts the count again after a delivery succeeds, so failures that are not in a row never disable', async () => {
    const endpoint = await endpointAtInbox();
    for (const failing of [true, false, true]) {
      if (failing) await server.control.setWebhookFault({ body: { url: inboxUrlOf(server), fail_next: 1, status: 500 } });
      await oneEvent();
    }
    expect(await readEndpoint(endpoint.id)).toMatchObject({ status: 'active', failure_count: 1 });
    expect((await deliveriesTo(endpoint.id)).map((d) => d.status)).toEqual(['failed', 'delivered', 'failed']);
  });

  it('parks a delivery retried while it is disabled, and sends it once it is enabled', async () => {
    const endpoint = await endpointAtInbox();
    await failEveryAttempt();
    // Two events at once: both deliveries fail in the same run, the endpoint is disabled after them.
    await placeOrder(server);
    await placeOrder(server);
    await server.control.runDueWebhooks();
    expect(await readEndpoint(endpoint.id)).toMatchObject({ status: 'disabled' });
    await server.control.clearWebhookFaults();
    // The client may retry a failed delivery while the endpoint is disabled: it is queued but
    // parked, and sent once the endpoint is enabled again.
    const [first] = await deliveriesTo(endpoint.id);
    const retried = await server.v3.retryWebhookDelivery({ path: { delivery: first!.id } });
    expect(retried.body.result.delivery.status).toBe('queued');
    expect((await server.control.runDueWebhooks()).body.result).toMatchObject({ attempted: 0 });
    await server.v3.updateWebhookEndpoint({ path: { webhook: endpoint.id }, body: { status: 'active' } });
    await server.control.runDueWebhooks();
    expect((await server.v3.getWebhookDelivery({ path: { delivery: first!.id } })).body.result.delivery).toMatchObject({ status: 'delivered', attempt: 2 });
  });

  it("never disables a v1 site's callback, which mirrors the site", async () => {
    const created = (await server.control.createSite({ body: { callback_url: inboxUrlOf(server) } })).body.result;
    const v1 = new DepositV1Client({
      baseUrl: server.url,
      retry: false,
      signer: createHmacSigner(depositV1SignatureScheme, { key: created.site.api_key, secret: created.api_secret }, { now: () => server.sandbox.clock.nowMs() }),
    });
    await failEveryAttempt();
    for (let i = 0; i < 3; i += 1) {
      await v1.sendSiteTestWebhook();
      expect((await server.control.runDueWebhooks()).body.result).toMatchObject({ attempted: 1, failed: 1 });
    }
    const callbacks = await server.sandbox.webhooks.store.listEndpoints(`site:${created.site.id}`);
    expect(callbacks.map((e) => [e.status, e.failedDeliveries])).toEqual([['active', 3]]);
  });
});
