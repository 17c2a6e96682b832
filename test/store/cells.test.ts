// The cells of every engine: an update is one atomic step, a claim succeeds once, and a cell lives
// exactly until its expiry, whatever else is stored (no count evicts it). On SQLite, two stores
// over one file (two processes sharing it) still never lose an update.
import { afterAll, describe, expect, it } from 'vitest';
import { engines } from './support/engines.js';

for (const makeEngine of engines) {
  const engine = makeEngine();
  describe(`cells on ${engine.name}`, () => {
    afterAll(() => engine.cleanUp());

    it('apply concurrent updates one after another: none is lost', async () => {
      const store = await engine.open();
      const counters = store.cells<number>('key-meters');
      const updates = Array.from({ length: 500 }, () => counters.update('k', 0, (n) => ({ value: (n ?? 0) + 1, expiresAtMs: 1_000, result: (n ?? 0) + 1 })));
      const seen = await Promise.all(updates);
      expect(new Set(seen).size).toBe(500);
      expect(await counters.get('k', 0)).toBe(500);
    });

    it('let exactly one of many concurrent claims of a key through', async () => {
      const store = await engine.open();
      const nonces = store.cells<true>('nonces');
      const claims = await Promise.all(Array.from({ length: 20 }, () => nonces.claim('key-1:nonce', true, 0, 600_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
    });

    it('keep a cell until its expiry and let it be claimed again after', async () => {
      const store = await engine.open();
      const nonces = store.cells<true>('nonces');
      expect(await nonces.claim('n', true, 0, 600_000)).toBe(true);
      expect(await nonces.claim('n', true, 599_999, 1_200_000)).toBe(false);
      expect(await nonces.get('n', 599_999)).toBe(true);
      expect(await nonces.get('n', 600_000)).toBeUndefined();
      expect(await nonces.claim('n', true, 600_000, 1_200_000)).toBe(true);
    });

    // 120,000 claims take a database engine a while on a busy 2-core machine.
    it('keep every live cell however many others are stored (no count evicts)', { timeout: 180_000 }, async () => {
      const store = await engine.open();
      const nonces = store.cells<true>('nonces');
      await nonces.claim('victim', true, 0, 600_000);
      // Past the 100,000 nonces an earlier, count-bounded store kept; 200 claims at a time.
      for (let i = 0; i < 120_000; i += 200) {
        await Promise.all(Array.from({ length: 200 }, (_, j) => nonces.claim(`flood-${i + j}`, true, 1, 600_000)));
      }
      expect(await nonces.claim('victim', true, 2, 600_000)).toBe(false);
    });

    it('hold kinds apart: the same key in two kinds is two cells', async () => {
      const store = await engine.open();
      await store.cells<number>('key-meters').update('7', 0, () => ({ value: 1, expiresAtMs: 10, result: undefined }));
      expect(await store.cells<true>('nonces').get('7', 0)).toBeUndefined();
    });

    it('sweep expired cells in batches and leave live ones', async () => {
      const store = await engine.open();
      const nonces = store.cells<true>('nonces');
      for (let i = 0; i < 30; i += 1) await nonces.claim(`old-${i}`, true, 0, 100);
      await nonces.claim('live', true, 0, 1_000);
      expect(await store.countExpiring()).toBe(31);
      let swept = 0;
      for (let round = 0; round < 10; round += 1) swept += await store.sweepExpired(500, 10);
      expect(swept).toBe(30);
      expect(await store.countExpiring()).toBe(1);
      expect(await nonces.get('live', 500)).toBe(true);
    });

    it('are empty after clear', async () => {
      const store = await engine.open();
      await store.cells<true>('nonces').claim('n', true, 0, 1_000);
      await store.clear();
      expect(await store.countExpiring()).toBe(0);
      expect(await store.cells<true>('nonces').claim('n', true, 0, 1_000)).toBe(true);
    });

    it('survive a restart and are shared by a second store over the same data', async () => {
      const store = await engine.open();
      const other = await engine.reopen(store);
      if (other === undefined) return; // the memory engine keeps nothing past its process
      const add = (cells: typeof counters) => cells.update('shared', 0, (n) => ({ value: (n ?? 0) + 1, expiresAtMs: 1_000, result: undefined }));
      const counters = store.cells<number>('key-meters');
      const theirs = other.cells<number>('key-meters');
      await Promise.all(Array.from({ length: 100 }, (_, i) => add(i % 2 === 0 ? counters : theirs)));
      expect(await theirs.get('shared', 0)).toBe(100);
      await store.close();
      const restarted = await engine.reopen(other);
      expect(await restarted!.cells<number>('key-meters').get('shared', 0)).toBe(100);
    });
  });
}
