// The sandbox control API's webhook rooms over real HTTP through the generated clients: the
// built-in inbox as a v1 site's callback URL and as a v3 endpoint URL (every delivery verified
// with the generated verifyWebhookSignature), fault injection (fail the next N, a delay past the
// attempt timeout, a duplicate), run-due waiting for what is due, and reset emptying both.
import { describe, expect, it } from 'vitest';
import { DepositV1Client, createHmacSigner, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { ApiError, verifyWebhookSignature } from '../../generated/sandbox-control/client.js';
import { Dispatcher } from '../../mock-server/dispatch/dispatcher.js';
import { DeliveryMachine } from '../../mock-server/domain/webhooks/delivery-machine.js';
import { WebhookService } from '../../mock-server/domain/webhooks/webhook-service.js';
import { presentDelivery } from '../../mock-server/handlers/v3-webhooks-present.js';
import { MemoryWebhookStore } from '../../mock-server/store/memory/memory-webhooks.js';
import { expectContractBody } from './support/contract.js';
import { send } from './support/http.js';
import { inboxUrlOf, useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
let inboxUrl: string;
useFrozenSandbox({ seed: 7 }, (started) => {
  server = started;
  inboxUrl = inboxUrlOf(started);
});

/** The default v3 client's engine id (the v3 handlers key endpoints by the key's client id). */
const clientId = () => String(server.sandbox.defaultKey.client.id);

async function inbox(query: { event_type?: string; event_id?: string } = {}) {
  const response = await server.control.listInboxWebhooks({ query });
  expectContractBody('control', 'listInboxWebhooks', response.status, response.body);
  return response.body.result.deliveries;
}

async function runDue() {
  const response = await server.control.runDueWebhooks();
  expectContractBody('control', 'runDueWebhooks', response.status, response.body);
  return response.body.result;
}

async function advance(seconds: number): Promise<void> {
  await server.control.advanceClock({ body: { seconds } });
}

/** A v3 endpoint of the default client at `url`, and one event emitted to it. */
async function v3EndpointAndEvent(url: string, type = 'api.test') {
  const { service } = server.sandbox.webhooks;
  const created = await service.createEndpoint(clientId(), { name: 'inbox', url, events: [type] });
  if (!created.ok) throw new Error(created.message);
  const { event, deliveries } = await service.emit({ clientId: clientId(), type, resource: { type: 'test', id: null }, payload: { hello: 'inbox' } });
  const [delivery] = deliveries;
  if (delivery === undefined) throw new Error('no delivery');
  return { secret: created.secret, event, deliveryId: delivery.id };
}

/** The delivery as the v3 contract shows it: `attempt`, and the last attempt's `response` and `error`. */
async function deliveryRecord(id: string) {
  const delivery = await server.sandbox.webhooks.store.getDelivery(id);
  if (delivery === undefined) throw new Error(`no delivery ${id}`);
  return presentDelivery(delivery);
}

describe('the built-in inbox', () => {
  it('receives a v1 site test webhook as its callback URL, with a valid signature', async () => {
    const created = await server.control.createSite({ body: { callback_url: inboxUrl } });
    const { site, api_secret, webhook_secret } = created.body.result;
    const v1 = new DepositV1Client({
      baseUrl: server.url,
      retry: false,
      signer: createHmacSigner(depositV1SignatureScheme, { key: site.api_key, secret: api_secret }, { now: () => server.sandbox.clock.nowMs() }),
    });
    const sent = (await v1.sendSiteTestWebhook()).body.data;
    await runDue();

    const records = await inbox();
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record).toMatchObject({ event_id: sent.eventId, event_type: 'webhook.test', delivery_id: sent.deliveryId, attempt: 1, signature_valid: true });
    expect(verifyWebhookSignature(record?.body ?? '', record?.headers['x-signature'] ?? '', webhook_secret)).toBe(true);
    expect(JSON.parse(record?.body ?? '')).toMatchObject({ eventId: sent.eventId, type: 'webhook.test', isFinal: false });
    expect((await deliveryRecord(sent.deliveryId)).status).toBe('delivered');
  });

  it('receives a v3 endpoint delivery as its URL, with a valid signature', async () => {
    const { secret, event, deliveryId } = await v3EndpointAndEvent(inboxUrl);
    await runDue();
    const [record, ...others] = await inbox({ event_id: event.id });
    expect(others).toEqual([]);
    expect(record).toMatchObject({ event_type: 'api.test', delivery_id: deliveryId, attempt: 1, signature_valid: true });
    expect(record?.body).toBe(event.body);
    expect(verifyWebhookSignature(record?.body ?? '', record?.headers['x-signature'] ?? '', secret)).toBe(true);
  });

  it('records any body of any type as raw text; a forged signature is invalid, a stranger is null', async () => {
    const { event, deliveryId } = await v3EndpointAndEvent('http://127.0.0.1:9/unused');
    const forged = await send(server.url, '/__mock/webhooks/inbox', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Event-Id': event.id, 'X-Delivery-Id': deliveryId, 'X-Event-Type': 'api.test', 'X-Signature': '0'.repeat(64) },
      body: event.body,
    });
    expect(forged.status).toBe(204);
    expect(forged.text).toBe('');
    const plain = await send(server.url, '/__mock/webhooks/inbox', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'not json at all' });
    expect(plain.status).toBe(204);
    expect(plain.headers.get('x-request-id')).toBeTruthy();

    const records = await inbox();
    expect(records.map((r) => [r.body, r.signature_valid])).toEqual([
      [event.body, false],
      ['not json at all', null],
    ]);
    expect(records[1]).toMatchObject({ event_id: null, event_type: null, delivery_id: null, attempt: null });
    expect(await inbox({ event_type: 'api.test' })).toHaveLength(1);
    expect(await inbox({ event_id: 'no-such-event' })).toEqual([]);

    const cleared = await server.control.clearInbox();
    expectContractBody('control', 'clearInbox', cleared.status, cleared.body);
    expect(cleared.body.result.cleared).toBe(2);
    expect(await inbox()).toEqual([]);
  });
});

describe('fault injection', () => {
  it('fail_next 2: the mock answers two attempts itself, and the third, after the schedule, is delivered', async () => {
    const fault = await server.control.setWebhookFault({ body: { url: inboxUrl, fail_next: 2, status: 503 } });
    expectContractBody('control', 'setWebhookFault', fault.status, fault.body);
    expect(fault.body.result).toMatchObject({ url: inboxUrl, fail_next: 2, status: 503, delay_ms: 0, duplicate: false });

    const { deliveryId } = await v3EndpointAndEvent(inboxUrl);
    const schedule = server.sandbox.webhooks.service.machine.scheduleSeconds;
    expect(await runDue()).toMatchObject({ attempted: 1, retrying: 1 });
    let delivery = await deliveryRecord(deliveryId);
    expect(delivery).toMatchObject({ status: 'retrying', attempt: 1 });
    expect(delivery.response?.status).toBe(503);

    await advance(schedule[1] ?? 0);
    await runDue();
    expect(await deliveryRecord(deliveryId)).toMatchObject({ status: 'retrying', attempt: 2 });
    expect(await inbox()).toEqual([]);

    await advance(schedule[2] ?? 0);
    await runDue();
    delivery = await deliveryRecord(deliveryId);
    expect(delivery).toMatchObject({ status: 'delivered', attempt: 3 });
    const records = await inbox();
    expect(records.map((r) => [r.delivery_id, r.attempt, r.signature_valid])).toEqual([[deliveryId, 3, true]]);
  });

  it('a status without fail_next answers every attempt until the faults are cleared', async () => {
    await server.control.setWebhookFault({ body: { url: server.url, status: 410 } });
    const first = await v3EndpointAndEvent(inboxUrl);
    await runDue();
    expect((await deliveryRecord(first.deliveryId)).response?.status).toBe(410);
    await advance(server.sandbox.webhooks.service.machine.scheduleSeconds[1] ?? 0);
    await runDue();
    expect((await deliveryRecord(first.deliveryId)).response?.status).toBe(410);

    const cleared = await server.control.clearWebhookFaults();
    expectContractBody('control', 'clearWebhookFaults', cleared.status, cleared.body);
    expect(cleared.body.result.cleared).toBe(1);
    await advance(server.sandbox.webhooks.service.machine.scheduleSeconds[2] ?? 0);
    await runDue();
    expect(await deliveryRecord(first.deliveryId)).toMatchObject({ status: 'delivered', attempt: 3 });
  });

  it('a delay past the attempt timeout fails the attempt as a timeout', async () => {
    // A sandbox engine with a short attempt timeout, so the test waits a fraction of a second.
    const { sandbox } = server;
    const store = new MemoryWebhookStore();
    const service = new WebhookService({ store, clock: sandbox.clock, random: sandbox.random, machine: new DeliveryMachine({ attemptTimeoutSeconds: 0.2 }) });
    sandbox.webhooks = { store, service, dispatcher: new Dispatcher({ service, store, clock: sandbox.clock, transport: (r, s) => sandbox.webhookTransport(r, s) }) };

    await server.control.setWebhookFault({ body: { url: inboxUrl, delay_ms: 5000 } });
    const { deliveryId } = await v3EndpointAndEvent(inboxUrl);
    expect(await runDue()).toMatchObject({ attempted: 1, retrying: 1 });
    const delivery = await deliveryRecord(deliveryId);
    expect(delivery.status).toBe('retrying');
    expect(delivery.error?.code).toBe('timeout');
    expect(delivery.response).toBeNull();
  });

  it('duplicate sends the next attempt twice and nothing else twice', async () => {
    await server.control.setWebhookFault({ body: { url: inboxUrl, duplicate: true } });
    const first = await v3EndpointAndEvent(inboxUrl);
    await runDue();
    const { event: second } = await server.sandbox.webhooks.service.emit({ clientId: clientId(), type: 'api.test', resource: { type: 'test', id: null }, payload: {} });
    await runDue();

    const records = await inbox();
    expect(records.map((r) => [r.event_id, r.delivery_id, r.attempt, r.signature_valid])).toEqual([
      [first.event.id, first.deliveryId, 1, true],
      [first.event.id, first.deliveryId, 1, true],
      [second.id, expect.any(String), 1, true],
    ]);
    expect(records[0]?.body).toBe(records[1]?.body);
    expect(await deliveryRecord(first.deliveryId)).toMatchObject({ status: 'delivered', attempt: 1 });
  });

  it('the longest matching url applies, and a fault for the same url replaces the earlier one', async () => {
    await server.control.setWebhookFault({ body: { url: server.url, fail_next: 5, status: 500 } });
    await server.control.setWebhookFault({ body: { url: inboxUrl, fail_next: 1, status: 502 } });
    const replaced = await server.control.setWebhookFault({ body: { url: inboxUrl, fail_next: 1, status: 504 } });
    expect(replaced.body.result.status).toBe(504);
    const { deliveryId } = await v3EndpointAndEvent(inboxUrl);
    await runDue();
    expect((await deliveryRecord(deliveryId)).response?.status).toBe(504);
    // The inbox fault is used up; the shorter url's fault now matches.
    await advance(server.sandbox.webhooks.service.machine.scheduleSeconds[1] ?? 0);
    await runDue();
    expect((await deliveryRecord(deliveryId)).response?.status).toBe(500);
  });

  it('a fault without an effect (a wait of 0, no duplicate), or out of bounds, is a 422 validation_error', async () => {
    const noEffects = [{ url: inboxUrl }, { url: inboxUrl, delay_ms: 0 }, { url: inboxUrl, duplicate: false }, { url: inboxUrl, delay_ms: 0, duplicate: false }];
    for (const body of [...noEffects, { url: inboxUrl, status: 200 }, { url: inboxUrl, fail_next: 0 }, { url: inboxUrl, delay_ms: 60001 }]) {
      try {
        await server.control.setWebhookFault({ body });
        expect.unreachable(`${JSON.stringify(body)} was accepted`);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        expect(error.status).toBe(422);
        expect(error.code).toBe('validation_error');
        expectContractBody('control', 'setWebhookFault', error.status, error.body);
      }
    }
  });
});

describe('run-due', () => {
  it('answers once the due deliveries were sent, with the clock frozen', async () => {
    const { deliveryId } = await v3EndpointAndEvent(inboxUrl);
    await runDue();
    expect((await inbox()).map((r) => r.delivery_id)).toEqual([deliveryId]);
    expect((await deliveryRecord(deliveryId)).status).toBe('delivered');
  });

  it('also waits for retries an advance already started sending', async () => {
    await server.control.setWebhookFault({ body: { url: inboxUrl, fail_next: 1 } });
    const { deliveryId } = await v3EndpointAndEvent(inboxUrl);
    await runDue();
    // The advance starts the due retry itself; run-due must wait for that attempt too.
    await advance(server.sandbox.webhooks.service.machine.scheduleSeconds[1] ?? 0);
    await runDue();
    expect((await inbox()).map((r) => [r.delivery_id, r.attempt])).toEqual([[deliveryId, 2]]);
    expect((await deliveryRecord(deliveryId)).status).toBe('delivered');
  });
});

describe('reset', () => {
  it('empties the inbox and removes the faults', async () => {
    await send(server.url, '/__mock/webhooks/inbox', { method: 'POST', body: 'hello' });
    await server.control.setWebhookFault({ body: { url: inboxUrl, status: 500 } });
    expect(await inbox()).toHaveLength(1);

    await server.control.resetSandbox();
    expect(await inbox()).toEqual([]);
    const { deliveryId } = await v3EndpointAndEvent(inboxUrl);
    await runDue();
    expect((await deliveryRecord(deliveryId)).status).toBe('delivered');
    expect(await inbox()).toHaveLength(1);
  });
});
