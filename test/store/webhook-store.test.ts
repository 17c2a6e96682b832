// The webhook part of every engine: records come back equal (Dates included) and detached from
// the caller's copies, a delivery keeps every attempt, lists are oldest first and filtered by client, event and endpoint, the due
// queue is ordered by instant and then by when a delivery was queued, and everything but the
// memory engine's survives a restart.
import { afterAll, describe, expect, it } from 'vitest';
import type { AttemptRecord, DeliveryRecord, EndpointRecord, EventRecord } from '../../mock-server/store/records/webhook-records.js';
import { decodeCursor, type ListRequest, type SortTerm } from '../../mock-server/store/list-query.js';
import { logKeys } from '../../mock-server/store/log-pages.js';
import { engines } from './support/engines.js';

const t0 = Date.parse('2026-11-21T12:00:00Z');
const at = (seconds: number) => new Date(t0 + seconds * 1000);

function endpoint(id: string, clientId: string): EndpointRecord {
  return {
    id, clientId, name: `endpoint ${id}`, url: 'http://127.0.0.1:9/hook', events: ['api.test'], status: 'active', secret: 'whsec_x',
    secretFingerprint: 'fp', failureCount: 0, failedDeliveries: 0, mirrorsSite: false, lastDeliveryAt: null, lastSuccessAt: null, lastFailureAt: at(1), createdAt: at(0), updatedAt: at(0),
  };
}

function event(id: string, clientId: string): EventRecord {
  return {
    id, clientId, type: 'api.test', resource: { type: 'webhook_endpoint', id: null }, payload: { nested: { list: [1, 'two'] } }, status: 'pending',
    requestId: 'req_1', correlationId: null, idempotencyKey: null, body: '{"a":1}', deliveryIds: [], createdAt: at(0),
  };
}

function delivery(id: string, fields: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return {
    id, clientId: 'c1', eventId: 'ev1', eventType: 'api.test', endpointId: 'we1', endpointUrl: 'http://127.0.0.1:9/hook', targeted: false,
    status: 'pending', attempts: [], maxAttempts: 5, nextAttemptAt: at(10), deliveredAt: null,
    createdAt: at(0), updatedAt: at(0), ...fields,
  };
}

/** Attempt `number` of a delivery: failed without an answer, failed with a 503, or answered 200. */
function attempt(number: number, outcome: 'no answer' | 'failed' | 'succeeded'): AttemptRecord {
  return {
    number,
    status: outcome === 'succeeded' ? 'succeeded' : 'failed',
    at: at(10 * number),
    durationMs: 120 + number,
    request: { url: 'http://127.0.0.1:9/hook', headers: { 'X-Delivery-Attempt': String(number) }, body: '{"a":1}' },
    response: outcome === 'no answer' ? null : { status: outcome === 'failed' ? 503 : 200, headers: { 'content-type': 'text/plain' }, body: 'try later' },
    error: outcome === 'no answer' ? { code: 'timeout', message: 'no answer within the attempt timeout' } : null,
  };
}

for (const makeEngine of engines) {
  const engine = makeEngine();
  describe(`webhook records on ${engine.name}`, () => {
    afterAll(() => engine.cleanUp());

    it('give back what was saved, Dates included, detached from the saved object', async () => {
      const { webhooks } = await engine.open();
      const saved = endpoint('we1', 'c1');
      await webhooks.saveEndpoint(saved);
      saved.name = 'changed after saving';
      const read = await webhooks.getEndpoint('we1');
      expect(read).toEqual(endpoint('we1', 'c1'));
      expect(read?.createdAt).toBeInstanceOf(Date);
      expect(read?.lastDeliveryAt).toBeNull();
      await webhooks.saveEvent(event('ev1', 'c1'));
      expect(await webhooks.getEvent('ev1')).toEqual(event('ev1', 'c1'));
      // A body on several lines that carries its payload, every request id and delivery set.
      const carried: EventRecord = {
        ...event('ev2', 'c1'),
        payload: { n: 1 },
        body: '{\n  "id": "ev2",\n  "note": "a\\nb","data":{"n":1}}',
        requestId: null,
        correlationId: 'corr-1',
        idempotencyKey: 'key-1',
        deliveryIds: ['wd1', 'wd2'],
      };
      await webhooks.saveEvent(carried);
      expect(await webhooks.getEvent('ev2')).toEqual(carried);
      expect(await webhooks.getDelivery('nope')).toBeUndefined();
    });

    it('list endpoints and events per client, oldest first, updates keeping their place', async () => {
      const { webhooks } = await engine.open();
      for (const [id, client] of [['we1', 'c1'], ['we2', 'c2'], ['we3', 'c1']] as const) await webhooks.saveEndpoint(endpoint(id, client));
      await webhooks.saveEndpoint({ ...endpoint('we1', 'c1'), name: 'renamed' });
      expect((await webhooks.listEndpoints('c1')).map((e) => [e.id, e.name])).toEqual([['we1', 'renamed'], ['we3', 'endpoint we3']]);
      expect(await webhooks.countEndpoints('c1')).toBe(2);
      expect(await webhooks.deleteEndpoint('we1')).toBe(true);
      expect(await webhooks.deleteEndpoint('we1')).toBe(false);
      expect(await webhooks.countEndpoints('c1')).toBe(1);
      for (const [id, client] of [['ev1', 'c1'], ['ev2', 'c2'], ['ev3', 'c1']] as const) await webhooks.saveEvent(event(id, client));
      expect((await webhooks.listEvents()).map((e) => e.id)).toEqual(['ev1', 'ev2', 'ev3']);
    });

    it("page a client's events and deliveries by creation, filtered, its own only, updates read as they are now", async () => {
      const { webhooks } = await engine.open();
      // Created out of id order, at 2, 0, 1 and 0 s: the page is by created_at, ties by id.
      for (const [id, client, second] of [['ev1', 'c1', 2], ['ev2', 'c1', 0], ['ev3', 'c1', 1], ['ev4', 'c1', 0], ['evX', 'c2', 0]] as const) {
        await webhooks.saveEvent({ ...event(id, client), createdAt: at(second) });
        await webhooks.saveDelivery(delivery(`d-${id}`, { clientId: client, eventId: id, createdAt: at(second), nextAttemptAt: null }));
      }
      await webhooks.saveEvent({ ...event('ev3', 'c1'), createdAt: at(1), type: 'api.other', status: 'delivered' });
      await webhooks.saveDelivery(delivery('d-ev3', { eventId: 'ev3', createdAt: at(1), status: 'delivered', nextAttemptAt: null }));
      const pageOf = (perPage: number, page = 1, direction: 'asc' | 'desc' = 'asc'): ListRequest<'v3'> => ({
        family: 'v3',
        mode: 'page',
        page,
        perPage,
        sort: [{ field: 'created_at', direction }],
        filters: {},
      });

      const all = await webhooks.pageEvents('c1', pageOf(10));
      expect(all.items.map((e) => e.id)).toEqual(['ev2', 'ev4', 'ev3', 'ev1']);
      expect(all.items[2]).toEqual({ ...event('ev3', 'c1'), createdAt: at(1), type: 'api.other', status: 'delivered' });
      expect(all.meta).toMatchObject({ mode: 'page', total: 4 });
      expect((await webhooks.pageEvents('c1', pageOf(2, 2, 'desc'))).items.map((e) => e.id)).toEqual(['ev4', 'ev2']);
      expect((await webhooks.pageEvents('c1', pageOf(10), (e) => e.type === 'api.other')).items.map((e) => e.id)).toEqual(['ev3']);
      expect((await webhooks.pageEvents('c3', pageOf(10))).items).toEqual([]);

      const sort: SortTerm[] = [{ field: 'created_at', direction: 'asc' }];
      const cursorPage = (cursor: string | null): ListRequest<'v3'> => {
        const after = cursor === null ? null : decodeCursor(cursor, sort, logKeys);
        if (after !== null && !after.ok) throw new Error(after.message);
        return { family: 'v3', mode: 'cursor', cursor, after: after?.position ?? null, perPage: 3, sort, filters: {} };
      };
      const first = await webhooks.pageEvents('c1', cursorPage(null));
      expect(first.items.map((e) => e.id)).toEqual(['ev2', 'ev4', 'ev3']);
      expect(first.meta).toMatchObject({ mode: 'cursor', has_more: true });
      const next = await webhooks.pageEvents('c1', cursorPage(first.meta.mode === 'cursor' ? first.meta.next_cursor : null));
      expect(next.items.map((e) => e.id)).toEqual(['ev1']);
      expect(next.meta).toMatchObject({ has_more: false, next_cursor: null });

      const deliveries = await webhooks.pageDeliveries('c1', pageOf(10), (d) => d.status === 'delivered' || d.eventId === 'ev1');
      expect(deliveries.items.map((d) => [d.id, d.status])).toEqual([['d-ev3', 'delivered'], ['d-ev1', 'pending']]);
      expect((await webhooks.pageDeliveries('c2', pageOf(10))).items.map((d) => d.id)).toEqual(['d-evX']);
    });

    it('keep every attempt of a delivery, in order, Dates and missing answers included', async () => {
      const { webhooks } = await engine.open();
      await webhooks.saveDelivery(delivery('d1', { status: 'retrying', attempts: [attempt(1, 'no answer')] }));
      const attempts = [attempt(1, 'no answer'), attempt(2, 'failed'), attempt(3, 'succeeded')];
      await webhooks.saveDelivery(delivery('d1', { status: 'delivered', attempts, nextAttemptAt: null, deliveredAt: at(30) }));
      const read = await webhooks.getDelivery('d1');
      expect(read?.attempts).toEqual(attempts);
      expect(read?.attempts[2]?.at).toBeInstanceOf(Date);
      expect((await webhooks.listDeliveries({ eventId: 'ev1' }))[0]?.attempts.map((a) => [a.number, a.status, a.response?.status ?? a.error?.code])).toEqual([
        [1, 'failed', 'timeout'],
        [2, 'failed', 503],
        [3, 'succeeded', 200],
      ]);
    });

    it('filter deliveries by every given field', async () => {
      const { webhooks } = await engine.open();
      await webhooks.saveDelivery(delivery('d1', { clientId: 'c1', eventId: 'e1', endpointId: 'p1' }));
      await webhooks.saveDelivery(delivery('d2', { clientId: 'c1', eventId: 'e2', endpointId: 'p1' }));
      await webhooks.saveDelivery(delivery('d3', { clientId: 'c2', eventId: 'e3', endpointId: 'p2' }));
      const ids = async (filter: Parameters<typeof webhooks.listDeliveries>[0]) => (await webhooks.listDeliveries(filter)).map((d) => d.id);
      expect(await ids({})).toEqual(['d1', 'd2', 'd3']);
      expect(await ids({ clientId: 'c1' })).toEqual(['d1', 'd2']);
      expect(await ids({ clientId: 'c1', endpointId: 'p1', eventId: 'e2' })).toEqual(['d2']);
      expect(await ids({ endpointId: 'p2', clientId: 'c1' })).toEqual([]);
    });

    it('queue deliveries by due instant, then by when they were queued; a save moves or removes one', async () => {
      const { webhooks } = await engine.open();
      await webhooks.saveDelivery(delivery('late', { nextAttemptAt: at(30) }));
      await webhooks.saveDelivery(delivery('first', { nextAttemptAt: at(10) }));
      await webhooks.saveDelivery(delivery('second', { nextAttemptAt: at(10) }));
      await webhooks.saveDelivery(delivery('never', { nextAttemptAt: null }));
      expect(await webhooks.queuedCount()).toBe(3);
      expect((await webhooks.dueDeliveries(at(9), 10)).map((d) => d.id)).toEqual([]);
      expect((await webhooks.dueDeliveries(at(30), 10)).map((d) => d.id)).toEqual(['first', 'second', 'late']);
      expect((await webhooks.dueDeliveries(at(30), 2)).map((d) => d.id)).toEqual(['first', 'second']);
      // Re-queued at the same instant: behind the one already waiting there.
      await webhooks.saveDelivery(delivery('first', { nextAttemptAt: at(10), attempts: [attempt(1, 'failed')] }));
      expect((await webhooks.dueDeliveries(at(10), 10)).map((d) => d.id)).toEqual(['second', 'first']);
      await webhooks.saveDelivery(delivery('second', { nextAttemptAt: null, status: 'delivered' }));
      expect((await webhooks.dueDeliveries(at(60), 10)).map((d) => d.id)).toEqual(['first', 'late']);
      expect(await webhooks.queuedCount()).toBe(2);
    });

    it('lease each due delivery to one claimant until the lease runs out, the attempt is recorded or the claim is released', async () => {
      const { webhooks } = await engine.open();
      for (let i = 0; i < 6; i += 1) await webhooks.saveDelivery(delivery(`d${i}`, { nextAttemptAt: at(10 + i) }));
      const lease = (nowMs: number) => ({ nowMs, untilMs: nowMs + 30_000 });
      const claim = async (limit: number, nowMs: number) => (await webhooks.claimDue(at(60), limit, lease(nowMs))).map((c) => `${c.delivery.id}${c.lostClaim ? ' lost' : ''}`);
      expect(await claim(4, 0)).toEqual(['d0', 'd1', 'd2', 'd3']);
      expect(await claim(10, 1_000)).toEqual(['d4', 'd5']);
      expect(await claim(10, 2_000)).toEqual([]);
      // Recording an attempt ends the lease: the retry it schedules can be claimed at once.
      await webhooks.saveDelivery(delivery('d1', { nextAttemptAt: at(20), attempts: [attempt(1, 'failed')] }));
      expect(await claim(10, 3_000)).toEqual(['d1']);
      // A claim given back unattempted can be claimed at once, and nothing was lost.
      await webhooks.releaseClaims(['d2']);
      expect(await claim(10, 4_000)).toEqual(['d2']);
      // A lease that ran out (its claimant died): the delivery is claimed again, marked as lost.
      expect(await claim(10, 30_000)).toEqual(['d0 lost', 'd3 lost']);
    });

    it('give concurrent claimants sharing the data disjoint deliveries', async () => {
      const store = await engine.open();
      const other = (await engine.reopen(store)) ?? store;
      for (let i = 0; i < 40; i += 1) await store.webhooks.saveDelivery(delivery(`d${i}`, { nextAttemptAt: at(10) }));
      const lease = { nowMs: 0, untilMs: 60_000 };
      const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? store : other).webhooks.claimDue(at(10), 7, lease)));
      const ids = claims.flat().map((c) => c.delivery.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(40);
    });

    it('are empty after the store is cleared', async () => {
      const store = await engine.open();
      await store.webhooks.saveEndpoint(endpoint('we1', 'c1'));
      await store.webhooks.saveDelivery(delivery('d1'));
      await store.clear();
      expect(await store.webhooks.countEndpoints('c1')).toBe(0);
      expect(await store.webhooks.queuedCount()).toBe(0);
    });

    it('survive a restart: records and the due queue', async () => {
      const store = await engine.open();
      await store.webhooks.saveEndpoint(endpoint('we1', 'c1'));
      await store.webhooks.saveEvent(event('ev1', 'c1'));
      await store.webhooks.saveDelivery(delivery('d1', { nextAttemptAt: at(10), status: 'retrying', attempts: [attempt(1, 'failed')] }));
      await store.close();
      const restarted = await engine.reopen(store);
      if (restarted === undefined) return; // the memory engine keeps nothing past its process
      expect(await restarted.webhooks.getEndpoint('we1')).toEqual(endpoint('we1', 'c1'));
      expect(await restarted.webhooks.getEvent('ev1')).toEqual(event('ev1', 'c1'));
      expect((await restarted.webhooks.dueDeliveries(at(10), 10)).map((d) => d.id)).toEqual(['d1']);
      expect((await restarted.webhooks.getDelivery('d1'))?.attempts).toEqual([attempt(1, 'failed')]);
    });
  });
}
