// The v3 webhook operations over real HTTP through the generated ExchangeV3Client (strict mode:
// every answer is checked against the contract), with a local node:http receiver on port 0 that
// verifies each delivery with the generated verifyWebhookSignature. Retries follow the engine's
// schedule as the virtual clock is advanced through the control API. No timing assertions: the
// helpers below only wait until the engine has done what the test expects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeV3Client, verifyWebhookSignature } from '../../generated/exchange-v3/client.js';
import { exchangeV3Info } from '../../generated/exchange-v3/contract-data.js';
import type { WebhookEventType } from '../../generated/exchange-v3/types.js';
import { webhookHeaderNames } from '../../mock-server/dispatch/sign.js';
import { useRecordingServer, type Seen } from '../support/recording-server.js';
import { startTestServer, type TestServer } from './support/server.js';
import { failure } from './support/failure.js';

const signatureHeader = exchangeV3Info['x-webhook-signature'].signature_header.toLowerCase();
const eventIdHeader = exchangeV3Info['x-webhook-signature'].event_id_header.toLowerCase();
const deliveryIdHeader = webhookHeaderNames.deliveryId.toLowerCase();

let server: TestServer;
const receiver = useRecordingServer(() => ({ status: 204 }));

beforeAll(async () => {
  server = await startTestServer({ seed: 44 });
  // Only the test's own runDue calls (and the ones the API and clock kick off) send deliveries.
  server.sandbox.stopDispatching();
  await server.control.freezeClock();
});

afterAll(async () => {
  await server?.close();
});

// ---- helpers ----

/** A client of its own (a freshly minted key belongs to a new client): tests do not share endpoints. */
async function newClient(): Promise<ExchangeV3Client> {
  const minted = await server.control.mintToken();
  return new ExchangeV3Client({ baseUrl: server.url, token: minted.body.result.token, retry: false });
}

let pathCounter = 0;
/** A receiver URL no other test uses (the recording server answers every path). */
function receiverUrl(): string {
  pathCounter += 1;
  return `${receiver.baseUrl}/hook-${pathCounter}`;
}

async function createEndpoint(client: ExchangeV3Client, events: WebhookEventType[] = ['api.test'], url = receiverUrl()) {
  const created = await client.createWebhookEndpoint({ body: { name: `Endpoint ${pathCounter}`, url, events } });
  expect(created.status).toBe(201);
  return { ...created.body.result.endpoint, path: new URL(url).pathname };
}

function seenAt(path: string): Seen[] {
  return receiver.seen.filter((s) => s.url === path);
}

function header(seen: Seen, name: string): string {
  const value = seen.headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

/** Runs due deliveries until `check` passes (a background run may hold a delivery in flight). */
async function eventually<T>(check: () => Promise<T> | T, tries = 300): Promise<T> {
  let last: unknown;
  for (let i = 0; i < tries; i += 1) {
    await server.sandbox.webhooks.dispatcher.runDue();
    try {
      return await check();
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw last;
}

const schedule = () => server.sandbox.webhooks.service.machine.scheduleSeconds;

/** Advances the virtual clock by the delay before attempt `attempt` (1-based), through the control API. */
async function advanceToAttempt(attempt: number): Promise<void> {
  const seconds = schedule()[attempt - 1];
  if (seconds === undefined) throw new Error(`the schedule has no attempt ${attempt}`);
  if (seconds > 0) await server.control.advanceClock({ body: { seconds } });
}

// ---- tests ----

describe('endpoints', () => {
  it('lists endpoints with the event catalog from the contract and the limits', async () => {
    const client = await newClient();
    const endpoint = await createEndpoint(client, ['order.created', 'api.test']);
    const listed = await client.listWebhookEndpoints();
    const { endpoints, events, limits } = listed.body.result;
    expect(endpoints.map((e) => e.id)).toEqual([endpoint.id]);
    expect(events).toEqual([
      { event: 'order.created', title: 'Order created' },
      { event: 'order.status_changed', title: 'Order status changed' },
      { event: 'api.test', title: 'Test event' },
    ]);
    expect(limits).toEqual({ max_endpoints: server.sandbox.webhooks.service.maxEndpointsPerClient, max_events_per_endpoint: events.length });
  });

  it('shows the secret only in create and rotate answers, then only its fingerprint', async () => {
    const client = await newClient();
    const created = await client.createWebhookEndpoint({ body: { name: 'One', url: receiverUrl(), events: ['api.test'] } });
    const endpoint = created.body.result.endpoint;
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({ status: 'active', failure_count: 0, last_delivery_at: null, last_success_at: null, last_failure_at: null });
    const id = endpoint.id;
    const reads = [
      (await client.getWebhookEndpoint({ path: { webhook: id } })).body.result,
      (await client.updateWebhookEndpoint({ path: { webhook: id }, body: { name: 'Renamed' } })).body.result,
      { endpoint: (await client.listWebhookEndpoints()).body.result.endpoints[0] },
    ];
    for (const read of reads) {
      expect(read?.endpoint).toBeDefined();
      expect(read?.endpoint).not.toHaveProperty('secret');
      expect(read?.endpoint?.secret_fingerprint).toBe(endpoint.secret_fingerprint);
    }
    const rotated = await client.rotateWebhookSecret({ path: { webhook: id } });
    expect(rotated.body.result.endpoint.secret).not.toBe(endpoint.secret);
    expect(rotated.body.result.endpoint.secret_fingerprint).not.toBe(endpoint.secret_fingerprint);
    const after = await client.getWebhookEndpoint({ path: { webhook: id } });
    expect(after.body.result?.endpoint).not.toHaveProperty('secret');
    expect(after.body.result?.endpoint.secret_fingerprint).toBe(rotated.body.result.endpoint.secret_fingerprint);
  });

  it('updates the given fields only and keeps updated_at true', async () => {
    const client = await newClient();
    const endpoint = await createEndpoint(client);
    await server.control.advanceClock({ body: { seconds: 60 } });
    const updated = await client.updateWebhookEndpoint({ path: { webhook: endpoint.id }, body: { events: ['order.created', 'order.status_changed'] } });
    const result = updated.body.result?.endpoint;
    expect(result).toMatchObject({ name: endpoint.name, url: endpoint.url, events: ['order.created', 'order.status_changed'], created_at: endpoint.created_at });
    expect(Date.parse(result?.updated_at ?? '') - Date.parse(endpoint.updated_at)).toBe(60_000);
  });

  it('deletes an endpoint: null result, then 404, and its pending deliveries are dropped', async () => {
    const client = await newClient();
    const endpoint = await createEndpoint(client, ['order.created']);
    // An event emitted but not yet sent, then the endpoint goes away.
    const emitted = await server.sandbox.webhooks.service.emit({
      clientId: await clientIdOf(client), type: 'order.created', resource: { type: 'order', id: 1 }, payload: {},
    });
    expect(emitted.deliveries).toHaveLength(1);
    const deleted = await client.deleteWebhookEndpoint({ path: { webhook: endpoint.id } });
    expect(deleted.body.result).toBeNull();
    const gone = await failure(client.getWebhookEndpoint({ path: { webhook: endpoint.id } }));
    expect([gone.status, gone.code]).toEqual([404, 'not_found']);
    expect((await client.listWebhookEndpoints()).body.result.endpoints).toEqual([]);
    await server.sandbox.webhooks.dispatcher.runDue();
    expect(seenAt(endpoint.path)).toEqual([]);
    // The log keeps the event and its (never sent) delivery.
    const event = await client.getWebhookEvent({ path: { event: emitted.event.id } });
    expect(event.body.result.event.deliveries.map((d) => d.id)).toEqual([emitted.deliveries[0]?.id]);
  });

  it('refuses one endpoint more than the limit with 422 webhook_endpoint_limit_reached', async () => {
    const client = await newClient();
    const { max_endpoints } = (await client.listWebhookEndpoints()).body.result.limits;
    for (let i = 0; i < max_endpoints; i += 1) await createEndpoint(client);
    const refused = await failure(client.createWebhookEndpoint({ body: { name: 'One too many', url: receiverUrl(), events: ['api.test'] } }));
    expect([refused.status, refused.code]).toEqual([422, 'webhook_endpoint_limit_reached']);
    expect((await client.listWebhookEndpoints()).body.result.endpoints).toHaveLength(max_endpoints);
  });

  it("answers 404 for another client's endpoint, event and delivery", async () => {
    const owner = await newClient();
    const stranger = await newClient();
    const endpoint = await createEndpoint(owner);
    const sent = await owner.sendTestWebhook({ body: { endpoint_id: endpoint.id } });
    const deliveryId = sent.body.result.deliveries[0]?.id ?? '';
    const calls = [
      () => stranger.getWebhookEndpoint({ path: { webhook: endpoint.id } }),
      () => stranger.updateWebhookEndpoint({ path: { webhook: endpoint.id }, body: { name: 'Mine now' } }),
      () => stranger.deleteWebhookEndpoint({ path: { webhook: endpoint.id } }),
      () => stranger.rotateWebhookSecret({ path: { webhook: endpoint.id } }),
      () => stranger.getWebhookEvent({ path: { event: sent.body.result.event.id } }),
      () => stranger.getWebhookDelivery({ path: { delivery: deliveryId } }),
      () => stranger.retryWebhookDelivery({ path: { delivery: deliveryId } }),
    ];
    for (const call of calls) {
      const error = await failure(call());
      expect([error.status, error.code]).toEqual([404, 'not_found']);
    }
    expect((await stranger.listWebhookEndpoints()).body.result.endpoints).toEqual([]);
    expect((await stranger.listWebhookEvents()).body.result.events).toEqual([]);
    expect((await stranger.listWebhookDeliveries()).body.result.deliveries).toEqual([]);
    // The owner's endpoint is untouched.
    expect((await owner.getWebhookEndpoint({ path: { webhook: endpoint.id } })).body.result?.endpoint.name).toBe(endpoint.name);
  });
});

describe('test webhook and delivery', () => {
  it('delivers a signed test event the receiver verifies with the one-time secret', async () => {
    const client = await newClient();
    const created = await client.createWebhookEndpoint({ body: { name: 'Verify', url: receiverUrl(), events: ['api.test'] } });
    const { secret, id: endpointId, url } = created.body.result.endpoint;
    const path = new URL(url).pathname;
    const sent = await client.sendTestWebhook({
      body: { payload: { hello: 'world' } },
      headers: { 'Idempotency-Key': 'test-hook-0001', 'X-Correlation-Id': 'corr-test-1' },
    });
    expect(sent.status).toBe(201);
    const { event, deliveries } = sent.body.result;
    expect(event).toMatchObject({ type: 'api.test', request_id: sent.requestId, correlation_id: 'corr-test-1' });
    expect(deliveries).toEqual([{ id: expect.any(String), status: expect.any(String), endpoint_id: endpointId }]);

    const [received] = await eventually(() => {
      const got = seenAt(path);
      expect(got).toHaveLength(1);
      return got;
    });
    expect(received).toBeDefined();
    if (received === undefined) return;
    expect(verifyWebhookSignature(received.raw, header(received, signatureHeader), secret)).toBe(true);
    expect(header(received, eventIdHeader)).toBe(event.id);
    expect(header(received, deliveryIdHeader)).toBe(deliveries[0]?.id);
    expect(JSON.parse(received.body)).toMatchObject({
      id: event.id, type: 'api.test', resource: { type: 'webhook_endpoint', id: null },
      request_id: sent.requestId, correlation_id: 'corr-test-1', idempotency_key: 'test-hook-0001', data: { hello: 'world' },
    });

    const readEvent = await eventually(async () => {
      const read = (await client.getWebhookEvent({ path: { event: event.id } })).body.result.event;
      expect(read.status).toBe('delivered');
      return read;
    });
    expect(readEvent).toMatchObject({ request_id: sent.requestId, correlation_id: 'corr-test-1', idempotency_key: 'test-hook-0001', deliveries_count: 1, payload: { hello: 'world' } });
    const delivery = (await client.getWebhookDelivery({ path: { delivery: deliveries[0]?.id ?? '' } })).body.result.delivery;
    expect(delivery).toMatchObject({ status: 'delivered', attempt: 1, endpoint: { id: endpointId, url }, event: { id: event.id, type: 'api.test' }, error: null, next_retry_at: null });
    expect(delivery.request?.body).toBe(received.body);
    expect(delivery.response?.status).toBe(204);
    expect(readEvent.deliveries).toEqual([delivery]);
    const endpoint = (await client.getWebhookEndpoint({ path: { webhook: endpointId } })).body.result?.endpoint;
    expect(endpoint).toMatchObject({ failure_count: 0, last_delivery_at: delivery.delivered_at, last_success_at: delivery.delivered_at, last_failure_at: null });
  });

  it('targets a named endpoint whatever its subscriptions, and refuses a missing target with 422', async () => {
    const client = await newClient();
    const endpoint = await createEndpoint(client, ['order.created']);
    const named = await client.sendTestWebhook({ body: { endpoint_id: endpoint.id, event_type: 'api.test' } });
    expect(named.body.result.deliveries.map((d) => d.endpoint_id)).toEqual([endpoint.id]);
    const event = (await client.getWebhookEvent({ path: { event: named.body.result.event.id } })).body.result.event;
    expect(event.resource).toEqual({ type: 'webhook_endpoint', id: endpoint.id });

    const unknown = await failure(client.sendTestWebhook({ body: { endpoint_id: '00000000-0000-4000-8000-000000000000' } }));
    expect([unknown.status, unknown.code, Object.keys(unknown.details)]).toEqual([422, 'validation_error', ['endpoint_id']]);
    // Without endpoint_id: nobody subscribes to api.test here.
    const none = await failure(client.sendTestWebhook({ body: {} }));
    expect([none.status, none.code, Object.keys(none.details)]).toEqual([422, 'validation_error', ['endpoint_id']]);
  });

  it('a receiver answering 500 twice then 200 gets the event on the 3rd attempt, once', async () => {
    const client = await newClient();
    const endpoint = await createEndpoint(client);
    let answered = 0;
    receiver.handler = (seen) => (seen.url === endpoint.path && (answered += 1) <= 2 ? { status: 500 } : { status: 204 });
    try {
      const sent = await client.sendTestWebhook({ body: { endpoint_id: endpoint.id } });
      const deliveryId = sent.body.result.deliveries[0]?.id ?? '';
      const read = () => client.getWebhookDelivery({ path: { delivery: deliveryId } }).then((r) => r.body.result.delivery);

      const first = await eventually(async () => {
        const d = await read();
        expect([d.status, d.attempt]).toEqual(['retrying', 1]);
        return d;
      });
      expect(first.response?.status).toBe(500);
      expect(Date.parse(first.next_retry_at ?? '') - Date.parse(server.sandbox.clock.now().toISOString())).toBe((schedule()[1] ?? 0) * 1000);
      let ep = (await client.getWebhookEndpoint({ path: { webhook: endpoint.id } })).body.result?.endpoint;
      expect(ep).toMatchObject({ failure_count: 1, last_success_at: null });
      expect(ep?.last_failure_at).not.toBeNull();

      await advanceToAttempt(2);
      await eventually(async () => expect([(await read()).status, (await read()).attempt]).toEqual(['retrying', 2]));
      ep = (await client.getWebhookEndpoint({ path: { webhook: endpoint.id } })).body.result?.endpoint;
      expect(ep?.failure_count).toBe(2);

      await advanceToAttempt(3);
      const done = await eventually(async () => {
        const d = await read();
        expect([d.status, d.attempt]).toEqual(['delivered', 3]);
        return d;
      });
      expect(done.next_retry_at).toBeNull();
      // Every attempt stays in the log with what was sent and what came back; the last is the delivery's own.
      expect(done.attempts?.map((a) => [a.attempt, a.status, a.response?.status, a.request.headers[webhookHeaderNames.attempt]])).toEqual([
        [1, 'failed', 500, '1'],
        [2, 'failed', 500, '2'],
        [3, 'succeeded', 204, '3'],
      ]);
      expect(done.attempts?.[2]).toMatchObject({ request: done.request, response: done.response, error: null });
      expect(done.attempts?.map((a) => a.attempted_at)).toEqual([first.attempts?.[0]?.attempted_at, expect.any(String), done.delivered_at]);
      const listed = await client.getWebhookEvent({ path: { event: sent.body.result.event.id } });
      expect(listed.body.result.event.deliveries[0]?.attempts).toEqual(done.attempts);
      // Nothing more is sent for it, whatever runs next.
      await server.sandbox.webhooks.dispatcher.runDue();
      const attempts = seenAt(endpoint.path).map((s) => header(s, webhookHeaderNames.attempt.toLowerCase()));
      expect(attempts).toEqual(['1', '2', '3']);
      ep = (await client.getWebhookEndpoint({ path: { webhook: endpoint.id } })).body.result?.endpoint;
      expect(ep).toMatchObject({ failure_count: 0, last_success_at: done.delivered_at, last_delivery_at: done.delivered_at });
      const event = (await client.getWebhookEvent({ path: { event: sent.body.result.event.id } })).body.result.event;
      expect(event.status).toBe('delivered');
    } finally {
      receiver.handler = () => ({ status: 204 });
    }
  });

  it('an always-failing receiver ends failed after the schedule; retry queues it and it is delivered on recovery', async () => {
    const client = await newClient();
    const endpoint = await createEndpoint(client);
    let healthy = false;
    receiver.handler = (seen) => (seen.url === endpoint.path && !healthy ? { status: 503 } : { status: 204 });
    try {
      const sent = await client.sendTestWebhook({ body: { endpoint_id: endpoint.id } });
      const deliveryId = sent.body.result.deliveries[0]?.id ?? '';
      const read = () => client.getWebhookDelivery({ path: { delivery: deliveryId } }).then((r) => r.body.result.delivery);
      const attempts = schedule().length;
      for (let attempt = 1; attempt <= attempts; attempt += 1) {
        if (attempt > 1) await advanceToAttempt(attempt);
        await eventually(async () => expect((await read()).attempt).toBe(attempt));
      }
      const failed = await read();
      expect([failed.status, failed.attempt, failed.next_retry_at]).toEqual(['failed', attempts, null]);
      expect(seenAt(endpoint.path)).toHaveLength(attempts);
      expect((await client.getWebhookEndpoint({ path: { webhook: endpoint.id } })).body.result?.endpoint.failure_count).toBe(attempts);
      expect((await client.getWebhookEvent({ path: { event: sent.body.result.event.id } })).body.result.event.status).toBe('failed');
      const failedList = await client.listWebhookDeliveries({ query: { 'filter[status]': ['failed'], 'filter[endpoint_id]': endpoint.id } });
      expect(failedList.body.result.deliveries.map((d) => d.id)).toEqual([deliveryId]);

      healthy = true;
      const retried = await client.retryWebhookDelivery({ path: { delivery: deliveryId } });
      expect(retried.body.result.delivery.status).toBe('queued');
      const delivered = await eventually(async () => {
        const d = await read();
        expect(d.status).toBe('delivered');
        return d;
      });
      expect(delivered.attempt).toBe(attempts + 1);
      await server.sandbox.webhooks.dispatcher.runDue();
      expect(seenAt(endpoint.path)).toHaveLength(attempts + 1);

      // A delivered delivery cannot be retried: the machine's reason comes back.
      const refused = await failure(client.retryWebhookDelivery({ path: { delivery: deliveryId } }));
      expect([refused.status, refused.code]).toEqual([409, 'invalid_state_transition']);
      expect((refused.body as { message?: string }).message).toMatch(/delivered/);
    } finally {
      receiver.handler = () => ({ status: 204 });
    }
  });

  it('after rotate-secret, deliveries (retries of older events included) verify only with the new secret', async () => {
    const client = await newClient();
    const created = await client.createWebhookEndpoint({ body: { name: 'Rotate', url: receiverUrl(), events: ['api.test'] } });
    const { id, secret: oldSecret, url } = created.body.result.endpoint;
    const path = new URL(url).pathname;
    let failing = true;
    receiver.handler = (seen) => (seen.url === path && failing ? { status: 500 } : { status: 204 });
    try {
      const older = await client.sendTestWebhook({ body: { endpoint_id: id } });
      await eventually(() => expect(seenAt(path)).toHaveLength(1));
      const [beforeRotation] = seenAt(path);
      expect(verifyWebhookSignature(beforeRotation?.raw ?? '', header(beforeRotation!, signatureHeader), oldSecret)).toBe(true);

      const newSecret = (await client.rotateWebhookSecret({ path: { webhook: id } })).body.result.endpoint.secret;
      failing = false;
      await advanceToAttempt(2);
      const newer = await client.sendTestWebhook({ body: { endpoint_id: id } });
      await eventually(() => expect(seenAt(path)).toHaveLength(3));
      const afterRotation = seenAt(path).slice(1);
      expect(afterRotation.map((s) => header(s, eventIdHeader)).sort()).toEqual([older.body.result.event.id, newer.body.result.event.id].sort());
      for (const seen of afterRotation) {
        expect(verifyWebhookSignature(seen.raw, header(seen, signatureHeader), newSecret)).toBe(true);
        expect(verifyWebhookSignature(seen.raw, header(seen, signatureHeader), oldSecret)).toBe(false);
      }
    } finally {
      receiver.handler = () => ({ status: 204 });
    }
  });

  it('a disabled endpoint receives nothing (new events skip it, queued ones wait) until set active again', async () => {
    const client = await newClient();
    const clientId = await clientIdOf(client);
    const endpoint = await createEndpoint(client, ['order.created']);
    const emit = () => server.sandbox.webhooks.service.emit({ clientId, type: 'order.created', resource: { type: 'order', id: 7 }, payload: { n: 1 } });
    const queued = await emit();
    const disabled = await client.updateWebhookEndpoint({ path: { webhook: endpoint.id }, body: { status: 'disabled' } });
    expect(disabled.body.result?.endpoint.status).toBe('disabled');
    const skipped = await emit();
    expect(skipped.deliveries).toEqual([]);
    await server.sandbox.webhooks.dispatcher.runDue();
    expect(seenAt(endpoint.path)).toEqual([]);
    // A test webhook names its endpoint, which the contract reaches whatever its status.
    const tested = await client.sendTestWebhook({ body: { endpoint_id: endpoint.id } });
    await eventually(async () => {
      await server.sandbox.webhooks.dispatcher.runDue();
      expect(seenAt(endpoint.path)).toHaveLength(1);
    });
    expect(header(seenAt(endpoint.path)[0]!, eventIdHeader)).toBe(tested.body.result.event.id);

    await client.updateWebhookEndpoint({ path: { webhook: endpoint.id }, body: { status: 'active' } });
    await eventually(() => expect(seenAt(endpoint.path)).toHaveLength(2));
    expect(header(seenAt(endpoint.path)[1]!, eventIdHeader)).toBe(queued.event.id);
  });

  it('setting an endpoint active again resets its failure count', async () => {
    const client = await newClient();
    const endpoint = await createEndpoint(client);
    receiver.handler = (seen) => (seen.url === endpoint.path ? { status: 500 } : { status: 204 });
    try {
      await client.sendTestWebhook({ body: { endpoint_id: endpoint.id } });
      await eventually(async () => {
        await server.sandbox.webhooks.dispatcher.runDue();
        expect((await client.getWebhookEndpoint({ path: { webhook: endpoint.id } })).body.result?.endpoint.failure_count).toBe(1);
      });
      await client.updateWebhookEndpoint({ path: { webhook: endpoint.id }, body: { status: 'disabled' } });
      const reactivated = await client.updateWebhookEndpoint({ path: { webhook: endpoint.id }, body: { status: 'active' } });
      expect(reactivated.body.result?.endpoint.failure_count).toBe(0);
    } finally {
      receiver.handler = () => ({ status: 204 });
    }
  });
});

describe('event and delivery logs', () => {
  it('filters by type and walks every cursor page, each event once', async () => {
    const client = await newClient();
    const clientId = await clientIdOf(client);
    const endpoint = await createEndpoint(client, ['order.created', 'api.test']);
    const ids: string[] = [];
    const orderIds: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      if (i % 3 === 0) {
        const { event } = await server.sandbox.webhooks.service.emit({ clientId, type: 'order.created', resource: { type: 'order', id: i }, payload: { i } });
        ids.push(event.id);
        orderIds.push(event.id);
      } else {
        const sent = await client.sendTestWebhook({ body: { endpoint_id: endpoint.id, payload: { i } } });
        ids.push(sent.body.result.event.id);
      }
      // Distinct creation times every other event; ties are ordered by id.
      if (i % 2 === 1) await server.sandbox.clock.advance(1000);
    }

    const walked: string[] = [];
    const times: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page += 1) {
      const listed = await client.listWebhookEvents({ query: { pagination: 'cursor', per_page: 7, ...(cursor !== undefined ? { cursor } : {}) } });
      walked.push(...listed.body.result.events.map((e) => e.id));
      times.push(...listed.body.result.events.map((e) => e.created_at));
      for (const e of listed.body.result.events) expect(e.deliveries).toEqual([]);
      const meta = listed.body.meta as { pagination?: { mode: string; next_cursor?: string | null; has_more?: boolean } };
      expect(meta.pagination?.mode).toBe('cursor');
      if (!meta.pagination?.has_more) break;
      cursor = meta.pagination.next_cursor ?? undefined;
    }
    expect(walked).toHaveLength(30);
    expect(new Set(walked)).toEqual(new Set(ids));
    // Newest first by default.
    expect([...times].sort().reverse()).toEqual(times);

    const filtered = await client.listWebhookEvents({ query: { 'filter[type]': ['order.created'], per_page: 25 } });
    expect(new Set(filtered.body.result.events.map((e) => e.id))).toEqual(new Set(orderIds));
    expect(filtered.body.meta).toMatchObject({ pagination: { mode: 'page', total: orderIds.length } });

    const oldestFirst = await client.listWebhookEvents({ query: { sort: ['created_at'], per_page: 100 } });
    const ascending = oldestFirst.body.result.events.map((e) => e.created_at);
    expect([...ascending].sort()).toEqual(ascending);
    expect(oldestFirst.body.meta).toMatchObject({ pagination: { mode: 'page', total: 30, last_page: 1 } });
  });

  it('filters deliveries by status, event and endpoint, in page and cursor modes', async () => {
    const client = await newClient();
    const first = await createEndpoint(client);
    const second = await createEndpoint(client);
    const both = await client.sendTestWebhook({ body: {} });
    expect(both.body.result.deliveries).toHaveLength(2);
    const onlyFirst = await client.sendTestWebhook({ body: { endpoint_id: first.id } });
    await eventually(async () => {
      const pending = await client.listWebhookDeliveries({ query: { 'filter[status]': ['pending', 'queued', 'retrying'] } });
      expect(pending.body.result.deliveries).toEqual([]);
    });

    const byEvent = await client.listWebhookDeliveries({ query: { 'filter[event_id]': both.body.result.event.id } });
    expect(new Set(byEvent.body.result.deliveries.map((d) => d.endpoint.id))).toEqual(new Set([first.id, second.id]));
    const byEndpoint = await client.listWebhookDeliveries({ query: { 'filter[endpoint_id]': first.id } });
    expect(new Set(byEndpoint.body.result.deliveries.map((d) => d.event.id))).toEqual(new Set([both.body.result.event.id, onlyFirst.body.result.event.id]));
    const delivered = await client.listWebhookDeliveries({ query: { 'filter[status]': ['delivered'], per_page: 2, page: 2 } });
    expect(delivered.body.meta).toMatchObject({ pagination: { mode: 'page', total: 3, current_page: 2, from: 3, to: 3 } });

    const walked: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page += 1) {
      const listed = await client.listWebhookDeliveries({ query: { pagination: 'cursor', per_page: 1, ...(cursor !== undefined ? { cursor } : {}) } });
      walked.push(...listed.body.result.deliveries.map((d) => d.id));
      const meta = listed.body.meta as { pagination?: { next_cursor?: string | null; has_more?: boolean } };
      if (!meta.pagination?.has_more) break;
      cursor = meta.pagination.next_cursor ?? undefined;
    }
    expect(walked).toHaveLength(3);
    expect(new Set(walked).size).toBe(3);

    const badCursor = await failure(client.listWebhookDeliveries({ query: { pagination: 'cursor', cursor: 'not-a-cursor' } }));
    expect([badCursor.status, badCursor.code]).toEqual([422, 'validation_error']);
  });
});

/** The engine's client id of a client: its key's client, as getClient reports it. */
async function clientIdOf(client: ExchangeV3Client): Promise<string> {
  const profile = await client.getClient();
  return String(profile.body.result.id);
}
