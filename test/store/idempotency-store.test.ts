// Idempotency records of every engine: a reservation is atomic, a finished request's response is
// kept for the whole window whatever other callers store, each caller is bounded on its own, and a
// reservation whose process died is taken over once its lease runs out, or at once when the next
// holder of the sandbox gives every pending one up.
import { afterAll, describe, expect, it } from 'vitest';
import type { IdempotencySlot, StoredResponse } from '../../mock-server/store/sandbox-store.js';
import { engines } from './support/engines.js';

const day = 86_400_000;
const limits = { maxPerCaller: 1_000, pendingLeaseMs: 60_000 };
const response = (fingerprint: string, text = 'created'): StoredResponse => ({
  fingerprint,
  status: 201,
  headers: { 'content-type': 'application/json', 'x-extra': ['a', 'b'] },
  body: Buffer.from(JSON.stringify({ text })),
});
const slot = (caller: string, key: string): IdempotencySlot => ({ caller, key });

for (const makeEngine of engines) {
  const engine = makeEngine();
  describe(`idempotency records on ${engine.name}`, () => {
    afterAll(() => engine.cleanUp());

    it('reserve a slot once among concurrent reservations, then replay the stored response', async () => {
      const { idempotency } = await engine.open();
      const reservations = await Promise.all(Array.from({ length: 50 }, () => idempotency.reserve(slot('key:1', 'k-1'), 'fp', 0, day, limits)));
      expect(reservations.filter((r) => r.kind === 'reserved')).toHaveLength(1);
      expect(reservations.filter((r) => r.kind === 'pending')).toHaveLength(49);
      await idempotency.complete(slot('key:1', 'k-1'), response('fp'));
      const again = await idempotency.reserve(slot('key:1', 'k-1'), 'fp', day - 1, 2 * day, limits);
      expect(again).toEqual({ kind: 'stored', response: response('fp') });
    });

    // 15,000 reservations take a database engine a while on a busy 2-core machine.
    it('keep a record for its whole window while other callers store many more', { timeout: 180_000 }, async () => {
      const { idempotency } = await engine.open();
      await idempotency.reserve(slot('key:A', 'order-1'), 'fp-a', 0, day, limits);
      await idempotency.complete(slot('key:A', 'order-1'), response('fp-a'));
      for (let caller = 0; caller < 15; caller += 1) {
        for (let i = 0; i < 1_000; i += 1) await idempotency.reserve(slot(`key:B${caller}`, `q-${i}`), 'fp', 1, day + 1, limits);
      }
      const replay = await idempotency.reserve(slot('key:A', 'order-1'), 'fp-a', day - 1, 2 * day, limits);
      expect(replay.kind).toBe('stored');
    });

    it('refuse a caller past its bound until its earliest record expires, and no one else', async () => {
      const { idempotency } = await engine.open();
      const bound = { ...limits, maxPerCaller: 3 };
      for (let i = 0; i < 3; i += 1) expect((await idempotency.reserve(slot('key:1', `k${i}`), 'fp', i * 1_000, day + i * 1_000, bound)).kind).toBe('reserved');
      expect(await idempotency.reserve(slot('key:1', 'k3'), 'fp', 5_000, day + 5_000, bound)).toEqual({ kind: 'full', limit: 3, retryAtMs: day });
      expect((await idempotency.reserve(slot('key:2', 'k0'), 'fp', 5_000, day + 5_000, bound)).kind).toBe('reserved');
      // The earliest record expires: its place is free again.
      expect((await idempotency.reserve(slot('key:1', 'k3'), 'fp', day, 2 * day, bound)).kind).toBe('reserved');
    });

    it('free a released reservation but keep a completed one', async () => {
      const { idempotency } = await engine.open();
      await idempotency.reserve(slot('key:1', 'a'), 'fp', 0, day, limits);
      await idempotency.release(slot('key:1', 'a'));
      expect((await idempotency.reserve(slot('key:1', 'a'), 'other', 1, day, limits)).kind).toBe('reserved');
      await idempotency.complete(slot('key:1', 'a'), response('other'));
      await idempotency.release(slot('key:1', 'a'));
      expect((await idempotency.reserve(slot('key:1', 'a'), 'other', 2, day, limits)).kind).toBe('stored');
    });

    it('let a reservation whose request never finished be taken over once its lease ran out', async () => {
      const { idempotency } = await engine.open();
      await idempotency.reserve(slot('key:1', 'a'), 'fp', 0, day, limits);
      expect(await idempotency.reserve(slot('key:1', 'a'), 'fp', limits.pendingLeaseMs - 1, day, limits)).toEqual({ kind: 'pending', fingerprint: 'fp' });
      expect((await idempotency.reserve(slot('key:1', 'a'), 'fp', limits.pendingLeaseMs, day, limits)).kind).toBe('reserved');
    });

    it('give up every pending reservation at once, keeping the completed ones and the caller bound right', async () => {
      const { idempotency } = await engine.open();
      const bound = { ...limits, maxPerCaller: 2 };
      await idempotency.reserve(slot('key:1', 'done'), 'fp', 0, day, bound);
      await idempotency.complete(slot('key:1', 'done'), response('fp'));
      await idempotency.reserve(slot('key:1', 'running'), 'fp', 0, day, bound);
      await idempotency.abandonPending();
      expect((await idempotency.reserve(slot('key:1', 'running'), 'fp', 1, day, bound)).kind).toBe('reserved');
      expect((await idempotency.reserve(slot('key:1', 'done'), 'fp', 1, day, bound)).kind).toBe('stored');
      expect((await idempotency.reserve(slot('key:1', 'third'), 'fp', 1, day, bound)).kind).toBe('full');
    });

    it('scope keys per caller', async () => {
      const { idempotency } = await engine.open();
      await idempotency.reserve(slot('key:1', 'same'), 'fp-1', 0, day, limits);
      await idempotency.complete(slot('key:1', 'same'), response('fp-1'));
      expect((await idempotency.reserve(slot('site:1', 'same'), 'fp-2', 0, day, limits)).kind).toBe('reserved');
    });

    it('drop records past their window: a sweep removes them and the key is new again', async () => {
      const store = await engine.open();
      await store.idempotency.reserve(slot('key:1', 'a'), 'fp', 0, day, limits);
      await store.idempotency.complete(slot('key:1', 'a'), response('fp'));
      expect(await store.sweepExpired(day - 1, 100)).toBe(0);
      expect(await store.sweepExpired(day, 100)).toBe(1);
      expect((await store.idempotency.reserve(slot('key:1', 'a'), 'new', day, 2 * day, limits)).kind).toBe('reserved');
    });

    it('keep stored responses across a restart', async () => {
      const store = await engine.open();
      await store.idempotency.reserve(slot('key:1', 'a'), 'fp', 0, day, limits);
      await store.idempotency.complete(slot('key:1', 'a'), response('fp', 'kept'));
      await store.close();
      const restarted = await engine.reopen(store);
      if (restarted === undefined) return; // the memory engine keeps nothing past its process
      expect(await restarted.idempotency.reserve(slot('key:1', 'a'), 'fp', 1, day, limits)).toEqual({ kind: 'stored', response: response('fp', 'kept') });
    });
  });
}
