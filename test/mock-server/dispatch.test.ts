// The dispatcher over real HTTP to a local node:http receiver on port 0: every delivery's
// X-Signature verified with the generated verifyWebhookSignature, the headers the contract
// declares, rotate-secret, and retries that follow the machine's schedule as the virtual clock
// is advanced explicitly (a property test over failures before recovery). No timing assertions.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { verifyWebhookSignature } from '../../generated/runtime/client-runtime.js';
import { exchangeV3Info } from '../../generated/exchange-v3/contract-data.js';
import { VirtualClock } from '../../mock-server/clock.js';
import { createRandom } from '../../mock-server/random.js';
import { DeliveryMachine } from '../../mock-server/domain/webhooks/delivery-machine.js';
import { MemoryWebhookStore } from '../../mock-server/store/memory/memory-webhooks.js';
import { WebhookService } from '../../mock-server/domain/webhooks/webhook-service.js';
import { DeliveryPool } from '../../mock-server/dispatch/delivery-pool.js';
import { Dispatcher } from '../../mock-server/dispatch/dispatcher.js';
import { webhookHeaderNames } from '../../mock-server/dispatch/sign.js';
import { repoRoot } from '../support/contracts.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the receiver does with one request: answer a status, drop the connection, or never answer. */
type Behaviour = number | 'reset' | 'hang';

let receiver: Server;
let baseUrl: string;
let received: Received[] = [];
let behave: (request: Received) => Behaviour = () => 200;

beforeAll(async () => {
  receiver = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const behaviour = behave(request);
      if (behaviour === 'reset') req.socket.destroy();
      else if (behaviour !== 'hang') res.writeHead(behaviour, { 'content-type': 'text/plain' }).end(`answer ${behaviour}`);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

function setup(machineOptions: ConstructorParameters<typeof DeliveryMachine>[0] = {}) {
  received = [];
  behave = () => 200;
  const clock = new VirtualClock(() => Date.parse('2026-11-21T12:00:00Z'));
  clock.freeze();
  const store = new MemoryWebhookStore();
  const machine = new DeliveryMachine(machineOptions);
  const service = new WebhookService({ store, clock, random: createRandom(3), machine });
  const dispatcher = new Dispatcher({ service, store, clock, pool: new DeliveryPool(4) });
  return { clock, store, machine, service, dispatcher };
}

type Setup = ReturnType<typeof setup>;

async function endpoint(s: Setup, path: string, events: string[] = ['api.test'], clientId = 'c1') {
  const created = await s.service.createEndpoint(clientId, { name: path, url: `${baseUrl}${path}`, events });
  if (!created.ok) throw new Error(created.message);
  return created;
}

async function emit(s: Setup, type = 'api.test', clientId = 'c1') {
  return s.service.emit({ clientId, type, resource: { type: 'webhook_endpoint', id: null }, payload: { hello: 'world' }, requestId: 'req_1' });
}

function header(request: Received, name: string): string {
  const value = request.headers[name.toLowerCase()];
  return typeof value === 'string' ? value : '';
}

/** Advances the clock to the delivery's next attempt, checking nothing is sent a millisecond before. */
async function advanceToNextAttempt(s: Setup, deliveryId: string): Promise<void> {
  const found = await s.service.getDelivery('c1', deliveryId);
  if (!found.ok || found.delivery.nextAttemptAt === null) throw new Error('no next attempt');
  const wait = found.delivery.nextAttemptAt.getTime() - s.clock.nowMs();
  if (wait > 1) {
    await s.clock.advance(wait - 1);
    expect((await s.dispatcher.runDue()).attempted).toBe(0);
    await s.clock.advance(1);
  } else if (wait === 1) {
    await s.clock.advance(1);
  }
}

describe('signed dispatch', () => {
  it('states the header names the contract components declare', () => {
    const contract = parse(readFileSync(join(repoRoot, 'generated/exchange-v3/openapi.yaml'), 'utf8')) as {
      components: { parameters: Record<string, { name: string; in: string }> };
    };
    const p = contract.components.parameters;
    expect(webhookHeaderNames).toEqual({
      signature: p['WebhookSignature']?.name,
      eventId: p['WebhookEventId']?.name,
      eventType: p['WebhookEventTypeHeader']?.name,
      timestamp: p['WebhookTimestamp']?.name,
      deliveryId: p['WebhookDeliveryId']?.name,
      attempt: p['WebhookDeliveryAttempt']?.name,
    });
    expect(webhookHeaderNames.signature).toBe(exchangeV3Info['x-webhook-signature'].signature_header);
  });

  it('POSTs the exact signed body with every header, to active subscribed endpoints only', async () => {
    const s = setup();
    const a = await endpoint(s, '/a', ['api.test', 'order.created']);
    const b = await endpoint(s, '/b', ['api.test']);
    await endpoint(s, '/other-type', ['order.status_changed']);
    const off = await endpoint(s, '/disabled', ['api.test']);
    await s.service.updateEndpoint('c1', off.endpoint.id, { status: 'disabled' });
    await endpoint(s, '/other-client', ['api.test'], 'c2');
    const secrets = new Map([['/a', a.secret], ['/b', b.secret]]);

    const { event, deliveries } = await emit(s);
    const summary = await s.dispatcher.runDue();
    expect(summary).toMatchObject({ attempted: 2, delivered: 2, retrying: 0, failed: 0 });
    expect(received.map((r) => r.path).sort()).toEqual(['/a', '/b']);
    for (const request of received) {
      expect(request.body).toBe(event.body);
      expect(verifyWebhookSignature(request.body, header(request, webhookHeaderNames.signature), secrets.get(request.path) ?? '')).toBe(true);
      expect(header(request, webhookHeaderNames.eventId)).toBe(event.id);
      expect(header(request, webhookHeaderNames.eventType)).toBe('api.test');
      expect(header(request, webhookHeaderNames.timestamp)).toBe(String(Math.floor(s.clock.nowMs() / 1000)));
      expect(header(request, webhookHeaderNames.attempt)).toBe('1');
      expect(deliveries.map((d) => d.id)).toContain(header(request, webhookHeaderNames.deliveryId));
      expect(header(request, 'content-type')).toBe('application/json');
    }
    const read = await s.service.getEvent('c1', event.id);
    expect(read.ok && read.event.status).toBe('delivered');
    expect(read.ok && read.deliveries.map((d) => [d.status, d.attempts.length, d.attempts[0]?.response?.status, d.attempts[0]?.request.body === event.body])).toEqual([
      ['delivered', 1, 200, true],
      ['delivered', 1, 200, true],
    ]);
    expect((await s.dispatcher.runDue()).attempted).toBe(0);
  });

  it('signs with the new secret only once the secret is rotated, retries included', async () => {
    const s = setup();
    const created = await endpoint(s, '/rotating');
    behave = () => 503;
    const { deliveries } = await emit(s);
    await s.dispatcher.runDue();
    const rotated = await s.service.rotateSecret('c1', created.endpoint.id);
    if (!rotated.ok) throw new Error(rotated.message);
    behave = () => 200;
    await advanceToNextAttempt(s, deliveries[0]?.id ?? '');
    await emit(s);
    expect(await s.dispatcher.runDue()).toMatchObject({ attempted: 2, delivered: 2 });

    const [before, ...after] = received;
    if (before === undefined) throw new Error('no first attempt');
    expect(verifyWebhookSignature(before.body, header(before, webhookHeaderNames.signature), created.secret)).toBe(true);
    expect(after).toHaveLength(2);
    for (const request of after) {
      const signature = header(request, webhookHeaderNames.signature);
      expect(verifyWebhookSignature(request.body, signature, rotated.secret)).toBe(true);
      expect(verifyWebhookSignature(request.body, signature, created.secret)).toBe(false);
    }
  });
});

describe('retries on the schedule', () => {
  it('ends failed after exactly maxAttempts attempts; a manual retry queues one more attempt', async () => {
    const s = setup();
    const created = await endpoint(s, '/down');
    behave = () => 500;
    const { deliveries, event } = await emit(s);
    const id = deliveries[0]?.id ?? '';
    await s.dispatcher.runDue();
    for (let attempt = 2; attempt <= s.machine.maxAttempts; attempt += 1) {
      await advanceToNextAttempt(s, id);
      expect(await s.dispatcher.runDue()).toMatchObject({ attempted: 1 });
    }
    expect(received).toHaveLength(s.machine.maxAttempts);
    expect(received.map((r) => header(r, webhookHeaderNames.attempt))).toEqual(
      Array.from({ length: s.machine.maxAttempts }, (_, i) => String(i + 1)),
    );
    const failed = await s.service.getDelivery('c1', id);
    expect(failed.ok && failed.delivery).toMatchObject({ status: 'failed', attempts: { length: s.machine.maxAttempts }, nextAttemptAt: null });
    const ep = await s.service.getEndpoint('c1', created.endpoint.id);
    expect(ep.ok && ep.endpoint).toMatchObject({ failureCount: s.machine.maxAttempts, lastSuccessAt: null, lastFailureAt: s.clock.now() });
    await s.clock.advance(10 * 24 * 3600 * 1000);
    expect((await s.dispatcher.runDue()).attempted).toBe(0);

    const queued = await s.service.retry('c1', id);
    expect(queued.ok && queued.delivery.status).toBe('queued');
    expect(await s.dispatcher.runDue()).toMatchObject({ attempted: 1, failed: 1 });
    expect(received).toHaveLength(s.machine.maxAttempts + 1);
    expect(await s.service.retry('c1', id)).toMatchObject({ ok: true });
    behave = () => 204;
    expect(await s.dispatcher.runDue()).toMatchObject({ attempted: 1, delivered: 1 });
    const done = await s.service.getEvent('c1', event.id);
    expect(done.ok && [done.event.status, done.deliveries[0]?.attempts.length]).toEqual(['delivered', s.machine.maxAttempts + 2]);
    expect(await s.service.retry('c1', id)).toMatchObject({ ok: false, code: 'invalid_state_transition' });
  });

  it('delivers exactly once after N failures (N < attempts), whatever the failures were', async () => {
    // A short attempt timeout keeps the rare 'hang' cases quick; it is not asserted on.
    const attempts = new DeliveryMachine().maxAttempts;
    const failure = fc.constantFrom<Behaviour>(500, 502, 503, 404, 410, 429, 301, 'reset', 'hang');
    await fc.assert(
      fc.asyncProperty(fc.array(failure, { minLength: 0, maxLength: attempts - 1 }), fc.constantFrom(200, 201, 202, 204), async (failures, success) => {
        const s = setup({ attemptTimeoutSeconds: 0.2 });
        const created = await endpoint(s, '/flaky');
        let calls = 0;
        behave = () => failures[calls++] ?? success;
        const { event, deliveries } = await emit(s);
        const id = deliveries[0]?.id ?? '';
        await s.dispatcher.runDue();
        for (let i = 0; i < failures.length; i += 1) {
          await advanceToNextAttempt(s, id);
          expect((await s.dispatcher.runDue()).attempted).toBe(1);
        }
        await s.clock.advance(10 * 24 * 3600 * 1000);
        expect((await s.dispatcher.runDue()).attempted).toBe(0);

        const answered = received.filter((r) => header(r, webhookHeaderNames.eventId) === event.id);
        expect(answered).toHaveLength(failures.length + 1);
        for (const r of answered) expect(verifyWebhookSignature(r.body, header(r, webhookHeaderNames.signature), created.secret)).toBe(true);
        const read = await s.service.getEvent('c1', event.id);
        if (!read.ok) throw new Error(read.message);
        expect(read.event.status).toBe('delivered');
        expect(read.deliveries.map((d) => d.status)).toEqual(['delivered']);
        // Every attempt is kept, in order, with the answer it got (none for a reset or a hang).
        const kept = read.deliveries[0]?.attempts ?? [];
        expect(kept.map((a) => [a.number, a.status, a.response?.status ?? a.error?.code])).toEqual(
          [...failures, success].map((b, i) => [i + 1, i < failures.length ? 'failed' : 'succeeded', typeof b === 'number' ? b : b === 'hang' ? 'timeout' : 'connection_reset']),
        );
        const ep = await s.service.getEndpoint('c1', created.endpoint.id);
        expect(ep.ok && ep.endpoint.failureCount).toBe(0);
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('records why an attempt got no answer', async () => {
    const s = setup({ attemptTimeoutSeconds: 0.2 });
    await endpoint(s, '/hang');
    behave = () => 'hang';
    const { deliveries } = await emit(s);
    await s.dispatcher.runDue();
    const timedOut = await s.service.getDelivery('c1', deliveries[0]?.id ?? '');
    expect(timedOut.ok && timedOut.delivery).toMatchObject({ status: 'retrying', attempts: [{ response: null, error: { code: 'timeout' } }] });

    // A port that was just free: nothing listens there any more.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const closed = await s.service.createEndpoint('c1', { name: 'closed', url: `http://127.0.0.1:${port}/hook`, events: ['order.created'] });
    expect(closed.ok).toBe(true);
    const second = await emit(s, 'order.created');
    await s.dispatcher.runDue();
    const refused = await s.service.getDelivery('c1', second.deliveries[0]?.id ?? '');
    expect(refused.ok && refused.delivery.attempts[0]?.error?.code).toBe('connection_refused');
  });
});
