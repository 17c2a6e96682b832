// The webhook engine's domain core without HTTP: the generated delivery machine driven through
// the service (every transition of webhook-delivery.yaml reached), endpoints and their limit,
// emission to active subscribed endpoints, failure_count and last_* times, the event roll-up
// and the store's due queue. Outcomes are reported to the service directly here; the dispatch
// suite makes the same attempts over real HTTP.
import { describe, expect, it } from 'vitest';
import { webhookDeliveryMachine } from '../../generated/machines.js';
import { VirtualClock } from '../../mock-server/clock.js';
import { createRandom } from '../../mock-server/random.js';
import {
  DeliveryMachine,
  type DeliveryEvent,
  type DeliveryStatus,
  type TransitionDecision,
} from '../../mock-server/domain/webhooks/delivery-machine.js';
import type { DeliveryRecord } from '../../mock-server/store/records/webhook-records.js';
import { MemoryWebhookStore } from '../../mock-server/store/memory/memory-webhooks.js';
import { WebhookService, type AttemptOutcome } from '../../mock-server/domain/webhooks/webhook-service.js';

/** Records every transition the service takes through the generated table. */
class RecordingMachine extends DeliveryMachine {
  readonly taken = new Set<string>();
  override nextStatus(from: DeliveryStatus, event: DeliveryEvent, guards: Readonly<Record<string, boolean>> = {}): TransitionDecision {
    const decision = super.nextStatus(from, event, guards);
    if (decision.ok) this.taken.add(`${from} --${event}--> ${decision.to}`);
    return decision;
  }
}

function setup(options: { scheduleSeconds?: number[]; maxEndpoints?: number } = {}) {
  const clock = new VirtualClock(() => Date.parse('2026-11-21T12:00:00Z'));
  clock.freeze();
  const store = new MemoryWebhookStore();
  const machine = new RecordingMachine(options.scheduleSeconds ? { scheduleSeconds: options.scheduleSeconds } : {});
  const service = new WebhookService({ store, clock, random: createRandom(7), machine, maxEndpointsPerClient: options.maxEndpoints });
  return { clock, store, machine, service };
}

const request = { url: 'http://127.0.0.1:9/hook', headers: {}, body: '{}' };
const ok: AttemptOutcome = { status: 200, durationMs: 1, request, response: { status: 200, headers: {}, body: '' } };
const bad: AttemptOutcome = { status: 500, durationMs: 1, request, response: { status: 500, headers: {}, body: 'no' } };
const timeout: AttemptOutcome = { error: { code: 'timeout', message: 'no answer' }, durationMs: 15_000, request };

function expectOk<T extends { ok: boolean }>(value: T): Extract<T, { ok: true }> {
  expect(value.ok, JSON.stringify(value)).toBe(true);
  return value as Extract<T, { ok: true }>;
}

async function oneDelivery(service: WebhookService, clientId = 'c1', maxAttempts?: number): Promise<DeliveryRecord> {
  const { deliveries } = await service.emit({ clientId, type: 'api.test', resource: { type: 'webhook_endpoint', id: null }, payload: {}, maxAttempts });
  const [delivery] = deliveries;
  if (delivery === undefined) throw new Error('no delivery emitted');
  return delivery;
}

describe('delivery machine (generated table)', () => {
  it('reads the schedule, the attempts and the timeout from the generated machine', () => {
    const machine = new DeliveryMachine();
    const schedule = webhookDeliveryMachine.timers['retry_schedule']?.scheduleSeconds ?? [];
    expect(machine.maxAttempts).toBe(schedule.length);
    expect(machine.attemptTimeoutMs).toBe((webhookDeliveryMachine.timers['attempt_timeout']?.seconds ?? 0) * 1000);
    schedule.forEach((seconds, index) => expect(machine.retryDelayMs(index + 1)).toBe(seconds * 1000));
    expect(machine.retryDelayMs(schedule.length + 1)).toBeNull();
    const custom = new DeliveryMachine({ scheduleSeconds: [0, 60], attemptTimeoutSeconds: 2 });
    expect([custom.maxAttempts, custom.retryDelayMs(2), custom.attemptTimeoutMs]).toEqual([2, 60_000, 2000]);
    expect(() => new DeliveryMachine({ scheduleSeconds: [] })).toThrow(RangeError);
  });

  it('refuses what the table lacks, and transitions whose guard does not hold', () => {
    const machine = new DeliveryMachine();
    expect(machine.nextStatus('delivered', 'retry')).toMatchObject({ ok: false, reason: expect.stringContaining('terminal') });
    expect(machine.nextStatus('pending', 'retry')).toMatchObject({ ok: false });
    expect(machine.nextStatus('pending', 'attempt_failed', {})).toMatchObject({ ok: false, reason: expect.stringContaining('guard') });
    expect(machine.nextStatus('failed', 'retry')).toMatchObject({ ok: true, to: 'queued' });
  });

  it('reaches every transition of webhook-delivery.yaml through the service', async () => {
    const { service, machine } = setup({ scheduleSeconds: [0, 5, 10] });
    await service.createEndpoint('c1', { name: 'all', url: 'http://127.0.0.1:9/hook', events: ['api.test'] });

    const first = await oneDelivery(service);
    expectOk(await service.recordAttempt(first.id, ok)); // pending → delivered

    const second = await oneDelivery(service);
    expectOk(await service.recordAttempt(second.id, bad)); // pending → retrying
    expectOk(await service.recordAttempt(second.id, timeout)); // retrying → retrying
    expectOk(await service.recordAttempt(second.id, ok)); // retrying → delivered

    const third = await oneDelivery(service);
    for (let i = 0; i < 3; i += 1) expectOk(await service.recordAttempt(third.id, bad)); // … retrying → failed
    expectOk(await service.retry('c1', third.id)); // failed → queued
    expect(expectOk(await service.recordAttempt(third.id, bad)).delivery).toMatchObject({ status: 'failed', attempts: { length: 4 } }); // queued → failed
    expectOk(await service.retry('c1', third.id));
    expectOk(await service.recordAttempt(third.id, ok)); // queued → delivered

    const single = await oneDelivery(service, 'c1', 1);
    expectOk(await service.recordAttempt(single.id, bad)); // pending → failed (the v1 test webhook's single attempt)

    const table = webhookDeliveryMachine.transitions.map((t) => `${t.from} --${t.event}--> ${t.to}`);
    expect([...machine.taken].sort()).toEqual([...new Set(table)].sort());
  });

  it('refuses a manual retry of a delivery that is not failed, with the machine reason', async () => {
    const { service } = setup();
    await service.createEndpoint('c1', { name: 'a', url: 'http://127.0.0.1:9/a', events: ['api.test'] });
    const delivery = await oneDelivery(service);
    expect(await service.retry('c1', delivery.id)).toMatchObject({ ok: false, code: 'invalid_state_transition', message: expect.stringContaining('pending') });
    await service.recordAttempt(delivery.id, ok);
    expect(await service.retry('c1', delivery.id)).toMatchObject({ ok: false, code: 'invalid_state_transition' });
    expect(await service.retry('c2', delivery.id)).toMatchObject({ ok: false, code: 'not_found' });
    expect(await service.recordAttempt(delivery.id, ok)).toMatchObject({ ok: false, code: 'invalid_state_transition' });
  });
});

describe('endpoints', () => {
  it('creates endpoints with a one-time whsec_ secret and its fingerprint, up to the limit', async () => {
    const { service } = setup({ maxEndpoints: 2 });
    const created = expectOk(await service.createEndpoint('c1', { name: 'a', url: 'http://x.test/a', events: ['order.created'] }));
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    expect(created.endpoint.secretFingerprint).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(created.endpoint).toMatchObject({ status: 'active', failureCount: 0, lastDeliveryAt: null, lastSuccessAt: null, lastFailureAt: null });
    expectOk(await service.createEndpoint('c1', { name: 'b', url: 'http://x.test/b', events: ['order.created'] }));
    expect(await service.createEndpoint('c1', { name: 'c', url: 'http://x.test/c', events: ['order.created'] })).toMatchObject({
      ok: false,
      code: 'webhook_endpoint_limit_reached',
    });
    expectOk(await service.createEndpoint('c2', { name: 'other client', url: 'http://x.test/c', events: ['order.created'] }));
    expectOk(await service.deleteEndpoint('c1', created.endpoint.id));
    expectOk(await service.createEndpoint('c1', { name: 'c', url: 'http://x.test/c', events: ['order.created'] }));
  });

  it('reads, updates, rotates and deletes only the client own endpoints', async () => {
    const { service, clock } = setup();
    const created = expectOk(await service.createEndpoint('c1', { name: 'a', url: 'http://x.test/a', events: ['order.created'] }));
    const id = created.endpoint.id;
    expect(await service.getEndpoint('c2', id)).toMatchObject({ ok: false, code: 'not_found' });
    await clock.advance(1000);
    const updated = expectOk(await service.updateEndpoint('c1', id, { name: 'b', events: ['api.test', 'api.test'], status: 'disabled' }));
    expect(updated.endpoint).toMatchObject({ name: 'b', url: 'http://x.test/a', events: ['api.test'], status: 'disabled' });
    expect(updated.endpoint.updatedAt.getTime() - updated.endpoint.createdAt.getTime()).toBe(1000);
    const rotated = expectOk(await service.rotateSecret('c1', id));
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.endpoint.secretFingerprint).not.toBe(created.endpoint.secretFingerprint);
    expect(await service.deleteEndpoint('c2', id)).toMatchObject({ ok: false, code: 'not_found' });
    expectOk(await service.deleteEndpoint('c1', id));
    expect(await service.getEndpoint('c1', id)).toMatchObject({ ok: false, code: 'not_found' });
  });
});

describe('events and deliveries', () => {
  it('makes one pending delivery, due now, per active endpoint of the client subscribed to the type', async () => {
    const { service, store, clock } = setup();
    const subscribed = expectOk(await service.createEndpoint('c1', { name: 's', url: 'http://x.test/s', events: ['order.created', 'api.test'] }));
    expectOk(await service.createEndpoint('c1', { name: 'other type', url: 'http://x.test/o', events: ['order.status_changed'] }));
    const disabled = expectOk(await service.createEndpoint('c1', { name: 'd', url: 'http://x.test/d', events: ['order.created'] }));
    await service.updateEndpoint('c1', disabled.endpoint.id, { status: 'disabled' });
    expectOk(await service.createEndpoint('c2', { name: 'other client', url: 'http://x.test/c2', events: ['order.created'] }));

    const { event, deliveries } = await service.emit({
      clientId: 'c1',
      type: 'order.created',
      resource: { type: 'order', id: 1042 },
      payload: { order: { id: 1042 } },
      requestId: 'req_1',
      correlationId: 'corr-1',
      idempotencyKey: 'idem-1',
    });
    expect(deliveries.map((d) => d.endpointId)).toEqual([subscribed.endpoint.id]);
    expect(deliveries[0]).toMatchObject({ status: 'pending', attempts: [], nextAttemptAt: clock.now(), eventId: event.id });
    expect(event).toMatchObject({ status: 'pending', requestId: 'req_1', correlationId: 'corr-1', idempotencyKey: 'idem-1', deliveryIds: [deliveries[0]?.id] });
    expect(JSON.parse(event.body)).toEqual({
      id: event.id,
      type: 'order.created',
      created_at: clock.now().toISOString(),
      resource: { type: 'order', id: 1042 },
      request_id: 'req_1',
      correlation_id: 'corr-1',
      idempotency_key: 'idem-1',
      data: { order: { id: 1042 } },
    });
    expect((await store.dueDeliveries(clock.now(), 10)).map((d) => d.id)).toEqual(deliveries.map((d) => d.id));

    // A named endpoint is reached whatever its subscriptions and status (the contract's test webhook).
    const named = await service.emit({ clientId: 'c1', type: 'order.status_changed', resource: { type: 'order', id: 1 }, payload: {}, endpointId: disabled.endpoint.id });
    expect(named.deliveries.map((d) => [d.endpointId, d.targeted])).toEqual([[disabled.endpoint.id, true]]);
  });

  it('keeps failure_count, last_* times and the event roll-up true', async () => {
    const { service, clock } = setup({ scheduleSeconds: [0, 5] });
    const a = expectOk(await service.createEndpoint('c1', { name: 'a', url: 'http://x.test/a', events: ['api.test'] }));
    const b = expectOk(await service.createEndpoint('c1', { name: 'b', url: 'http://x.test/b', events: ['api.test'] }));
    const { event, deliveries } = await service.emit({ clientId: 'c1', type: 'api.test', resource: { type: 'webhook_endpoint', id: null }, payload: {} });
    const [toA, toB] = deliveries;
    if (toA === undefined || toB === undefined) throw new Error('two deliveries expected');

    const t1 = clock.now();
    const failedOnce = expectOk(await service.recordAttempt(toA.id, bad)).delivery;
    expect(failedOnce).toMatchObject({ status: 'retrying', attempts: [{ number: 1, status: 'failed', response: { status: 500 }, durationMs: 1 }], nextAttemptAt: new Date(t1.getTime() + 5000) });
    let endpointA = expectOk(await service.getEndpoint('c1', a.endpoint.id)).endpoint;
    expect(endpointA).toMatchObject({ failureCount: 1, lastDeliveryAt: t1, lastFailureAt: t1, lastSuccessAt: null });

    await clock.advance(5000);
    const t2 = clock.now();
    expectOk(await service.recordAttempt(toA.id, timeout));
    endpointA = expectOk(await service.getEndpoint('c1', a.endpoint.id)).endpoint;
    expect(endpointA).toMatchObject({ failureCount: 2, lastDeliveryAt: t2, lastFailureAt: t2, lastSuccessAt: null });
    // Both attempts are kept, each with what it got and when.
    expect(expectOk(await service.getDelivery('c1', toA.id)).delivery).toMatchObject({
      status: 'failed',
      nextAttemptAt: null,
      attempts: [
        { number: 1, status: 'failed', at: t1, response: { status: 500 }, error: null },
        { number: 2, status: 'failed', at: t2, response: null, error: { code: 'timeout' } },
      ],
    });
    expect(expectOk(await service.getEvent('c1', event.id)).event.status).toBe('pending');

    expectOk(await service.recordAttempt(toB.id, ok));
    expect(expectOk(await service.getEndpoint('c1', b.endpoint.id)).endpoint).toMatchObject({ failureCount: 0, lastSuccessAt: t2, lastDeliveryAt: t2 });
    expect(expectOk(await service.getEvent('c1', event.id)).event.status).toBe('partially_delivered');

    await clock.advance(1000);
    expectOk(await service.retry('c1', toA.id));
    expect(expectOk(await service.getEvent('c1', event.id)).event.status).toBe('pending');
    expectOk(await service.recordAttempt(toA.id, ok));
    endpointA = expectOk(await service.getEndpoint('c1', a.endpoint.id)).endpoint;
    expect(endpointA).toMatchObject({ failureCount: 0, lastSuccessAt: clock.now(), lastFailureAt: t2 });
    const read = expectOk(await service.getEvent('c1', event.id));
    expect(read.event.status).toBe('delivered');
    expect(read.deliveries.map((d) => d.deliveredAt)).toEqual([clock.now(), t2]);
  });

  it('parks the deliveries of a disabled or deleted endpoint and queues them again on activation', async () => {
    const { service, store, clock } = setup();
    const a = expectOk(await service.createEndpoint('c1', { name: 'a', url: 'http://x.test/a', events: ['api.test'] }));
    const delivery = await oneDelivery(service);
    expectOk(await service.updateEndpoint('c1', a.endpoint.id, { status: 'disabled' }));
    expect(await store.dueDeliveries(clock.now(), 10)).toEqual([]);
    expect(await service.prepareAttempt(delivery.id)).toBeNull();
    await clock.advance(60_000);
    expectOk(await service.updateEndpoint('c1', a.endpoint.id, { status: 'active' }));
    expect((await store.dueDeliveries(clock.now(), 10)).map((d) => d.id)).toEqual([delivery.id]);
    expect(await service.prepareAttempt(delivery.id)).toMatchObject({ attempt: 1, endpoint: { id: a.endpoint.id } });
    expectOk(await service.deleteEndpoint('c1', a.endpoint.id));
    expect(await store.queuedCount()).toBe(0);
    expect(expectOk(await service.getDelivery('c1', delivery.id)).delivery.status).toBe('pending');
  });
});

describe('memory store due queue', () => {
  it('orders due deliveries by next attempt time, then by queueing order, and honours the limit', async () => {
    const { service, store, clock } = setup({ scheduleSeconds: [0, 30, 30] });
    await service.createEndpoint('c1', { name: 'a', url: 'http://x.test/a', events: ['api.test'] });
    const first = await oneDelivery(service);
    const second = await oneDelivery(service);
    const third = await oneDelivery(service);
    expect((await store.dueDeliveries(clock.now(), 2)).map((d) => d.id)).toEqual([first.id, second.id]);
    await service.recordAttempt(first.id, bad); // due in 30 s
    await clock.advance(10_000);
    await service.recordAttempt(second.id, bad); // due in 40 s from the start
    expect((await store.dueDeliveries(clock.now(), 10)).map((d) => d.id)).toEqual([third.id]);
    await clock.advance(30_000);
    expect((await store.dueDeliveries(clock.now(), 10)).map((d) => d.id)).toEqual([third.id, first.id, second.id]);
    expect(await store.queuedCount()).toBe(3);
  });
});
