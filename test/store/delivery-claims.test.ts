// At-least-once delivery across processes that share a store, on every engine: two dispatchers
// over one store (another connection to the same file or database; the same store for the memory
// engine) running at once attempt each due delivery exactly once, over real HTTP; a claimant that
// dies mid-delivery loses nothing: once its lease runs out the lost attempt is recorded as
// failed (`claim_expired`) and the delivery is retried, the retry carrying the next attempt number.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../mock-server/clock.js';
import { DeliveryPool } from '../../mock-server/dispatch/delivery-pool.js';
import { EgressPolicy } from '../../mock-server/dispatch/egress-policy.js';
import { httpTransport } from '../../mock-server/dispatch/http-transport.js';
import { webhookHeaderNames } from '../../mock-server/dispatch/sign.js';
import { createRandom } from '../../mock-server/random.js';
import type { SandboxStore } from '../../mock-server/store/sandbox-store.js';
import { createWebhookEngine } from '../../mock-server/webhook-engine.js';
import { engines } from './support/engines.js';

const t0 = Date.parse('2026-11-21T12:00:00Z');

/**
 * A receiver answering 200 to every POST (after `answerAfterMs` on paths ending in /slow),
 * counting the attempts it got per delivery id.
 */
async function startReceiver(answerAfterMs = 150): Promise<{ url: string; attempts: Map<string, string[]>; server: Server }> {
  const attempts = new Map<string, string[]>();
  const server = createServer((req, res) => {
    req.resume().on('end', () => {
      const delivery = String(req.headers[webhookHeaderNames.deliveryId.toLowerCase()]);
      attempts.set(delivery, [...(attempts.get(delivery) ?? []), String(req.headers[webhookHeaderNames.attempt.toLowerCase()])]);
      setTimeout(() => res.writeHead(200).end(), req.url?.endsWith('/slow') === true ? answerAfterMs : 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, attempts, server };
}

/** One process's webhook engine over `store`: its own frozen clock at t0, real time from `realNow`. */
function replica(store: SandboxStore, realNow: () => number, seed: number) {
  const clock = new VirtualClock(() => t0);
  clock.freeze();
  const transport = httpTransport({ policy: new EgressPolicy() });
  return createWebhookEngine(store.webhooks, clock, createRandom(seed), transport, new DeliveryPool(), { retryScheduleSeconds: [0, 0, 0], realNow });
}

describe.each(engines)('webhook deliveries claimed by one of several processes (%s)', (makeEngine) => {
  const engine = makeEngine();
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterEach(() => receiver.attempts.clear());
  afterAll(async () => {
    receiver.server.close();
    await engine.cleanUp();
  });

  async function twoReplicas(realNow: () => number, path = '') {
    const store = await engine.open();
    const other = (await engine.reopen(store)) ?? store;
    const first = replica(store, realNow, 1);
    const second = replica(other, realNow, 2);
    const created = await first.service.createEndpoint('c1', { name: 'hook', url: `${receiver.url}${path}`, events: ['api.test'] });
    if (!created.ok) throw new Error(created.message);
    return { first, second };
  }

  it('a run ends once the runs its process had under way recorded their attempts', async () => {
    // What POST /__mock/webhooks/run-due relies on after a clock advance started a run itself.
    const { first } = await twoReplicas(Date.now, '/slow');
    const { deliveries } = await first.service.emit({ clientId: 'c1', type: 'api.test', resource: { type: 'webhook_endpoint', id: null }, payload: {} });
    const id = deliveries[0]!.id;
    const started = first.dispatcher.runDue();
    while (!receiver.attempts.has(id)) await new Promise((resolve) => setTimeout(resolve, 5));
    // The delivery is claimed by the run under way, its receiver still answering: this run
    // attempts nothing, and waits for that attempt's outcome.
    expect(await first.dispatcher.runDue()).toMatchObject({ attempted: 0 });
    expect((await first.store.getDelivery(id))!.status).toBe('delivered');
    expect(await started).toMatchObject({ attempted: 1, delivered: 1 });
  });

  it('attempts each due delivery once, whichever process claims it', async () => {
    const { first, second } = await twoReplicas(Date.now);
    const emitted = [];
    for (let i = 0; i < 40; i += 1) emitted.push(await (i % 2 === 0 ? first : second).service.emit({ clientId: 'c1', type: 'api.test', resource: { type: 'webhook_endpoint', id: null }, payload: { i } }));
    const [a, b] = await Promise.all([first.dispatcher.runDue(), second.dispatcher.runDue()]);
    expect(a.delivered + b.delivered).toBe(40);
    expect(receiver.attempts.size).toBe(40);
    expect([...receiver.attempts.values()].every((attempts) => attempts.length === 1)).toBe(true);
    const ids = emitted.flatMap(({ deliveries }) => deliveries.map((d) => d.id));
    expect([...receiver.attempts.keys()].sort()).toEqual([...ids].sort());
  });

  it('records the attempt of a claimant that died once its lease ran out, and retries the delivery', async () => {
    let realTime = t0;
    const { first, second } = await twoReplicas(() => realTime);
    const { deliveries } = await first.service.emit({ clientId: 'c1', type: 'api.test', resource: { type: 'webhook_endpoint', id: null }, payload: {} });
    const id = deliveries[0]!.id;
    // The first process claims the delivery and dies before attempting it.
    expect(await first.store.claimDue(new Date(t0), 10, { nowMs: realTime, untilMs: realTime + 30_000 })).toHaveLength(1);
    expect(await second.dispatcher.runDue()).toMatchObject({ attempted: 0 });
    expect(receiver.attempts.size).toBe(0);

    realTime += 30_000;
    expect(await second.dispatcher.runDue()).toMatchObject({ attempted: 1, retrying: 1 });
    const lost = (await second.store.getDelivery(id))!;
    expect(lost.attempts.map((attempt) => [attempt.number, attempt.error?.code])).toEqual([[1, 'claim_expired']]);
    expect(await second.dispatcher.runDue()).toMatchObject({ attempted: 1, delivered: 1 });
    expect(receiver.attempts.get(id)).toEqual(['2']);
  });
});
