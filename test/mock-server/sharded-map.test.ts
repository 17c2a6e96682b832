// The sharded maps behind the stores' growing indexes: after any sequence of writes they answer
// as a Map does (the ordered one also iterates in a Map's order, across many shards and log
// chunks), and they spread ids evenly enough that no shard grows far past its share, which is
// what keeps a store of a million records from stalling while a shard grows.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderedShardedMap } from '../../mock-server/store/ordered-sharded-map.js';
import { ShardedMap } from '../../mock-server/store/sharded-map.js';

type Op<K> = { set: K; value: number } | { delete: K } | { clear: true };

function opsOf<K>(keys: fc.Arbitrary<K>): fc.Arbitrary<Op<K>[]> {
  const op: fc.Arbitrary<Op<K>> = fc.oneof(
    { weight: 12, arbitrary: fc.record({ set: keys, value: fc.integer() }) },
    { weight: 5, arbitrary: fc.record({ delete: keys }) },
    { weight: 1, arbitrary: fc.constant({ clear: true as const }) },
  );
  return fc.array(op, { maxLength: 400 });
}

const stringKeys = fc.oneof(fc.string({ maxLength: 3 }), fc.uuid());
const numberKeys = fc.oneof(fc.integer({ min: -300, max: 300 }), fc.constantFrom(Number.NaN, -0, 0, 0.5, 2 ** 40, -(2 ** 33)));

/** Runs `ops` on a Map and on `sharded`, checking every answer against the Map's; returns the Map. */
function replay<K extends string | number>(ops: Op<K>[], sharded: ShardedMap<K, number> | OrderedShardedMap<K, number>): Map<K, number> {
  const map = new Map<K, number>();
  for (const op of ops) {
    if ('set' in op) {
      const added = !map.has(op.set);
      map.set(op.set, op.value);
      const answer = sharded.set(op.set, op.value);
      if (sharded instanceof ShardedMap) expect(answer).toBe(added);
      expect(sharded.get(op.set)).toBe(op.value);
    } else if ('delete' in op) {
      expect(sharded.delete(op.delete)).toBe(map.delete(op.delete));
      expect(sharded.has(op.delete)).toBe(false);
    } else {
      sharded.clear();
      map.clear();
    }
    expect(sharded.size).toBe(map.size);
  }
  for (const [key, value] of map) expect(sharded.get(key)).toBe(value);
  return map;
}

describe('ShardedMap', () => {
  it('property: string and number keys (NaN and -0 included) answer as in a Map', () => {
    fc.assert(fc.property(opsOf(stringKeys), (ops) => void replay(ops, new ShardedMap())), { numRuns: 200 });
    fc.assert(fc.property(opsOf(numberKeys), (ops) => void replay(ops, new ShardedMap())), { numRuns: 200 });
  });

  it('spreads random ids, sequential order ids and integers so that no shard holds more than a quarter over its share', () => {
    const count = 100_000;
    const keySets: (string | number)[][] = [
      Array.from({ length: count }, () => randomUUID()),
      Array.from({ length: count }, (_, i) => `order-${i}`),
      Array.from({ length: count }, (_, i) => i),
    ];
    for (const keys of keySets) {
      const sharded = new ShardedMap<string | number, true>();
      for (const key of keys) sharded.set(key, true);
      expect(sharded.largestShard()).toBeLessThan((1.25 * count) / 8);
    }
  });
});

describe('OrderedShardedMap', () => {
  it('property: answers and iterates as a Map (insertion order; a key set again keeps its place, one deleted and set again goes last)', () => {
    for (const keys of [stringKeys, numberKeys] as fc.Arbitrary<string | number>[]) {
      fc.assert(
        fc.property(opsOf(keys), (ops) => {
          const ordered = new OrderedShardedMap<string | number, number>();
          const map = replay(ops, ordered);
          expect([...ordered]).toEqual([...map]);
          expect([...ordered.keys()]).toEqual([...map.keys()]);
          expect([...ordered.values()]).toEqual([...map.values()]);
          // Iterating again, after the stale entries went, gives the same.
          expect([...ordered]).toEqual([...map]);
        }),
        { numRuns: 200 },
      );
    }
  });

  it('keeps its log of keys within about twice the live keys while keys keep being deleted and added, never iterated', () => {
    const ordered = new OrderedShardedMap<string, number>();
    for (let i = 0; i < 200_000; i += 1) {
      ordered.set(`quote-${i}`, i);
      if (i >= 1_000) ordered.delete(`quote-${i - 1_000}`);
      expect(ordered.loggedKeys()).toBeLessThanOrEqual(ordered.size + 8192 + 1);
    }
    expect(ordered.size).toBe(1_000);
    expect([...ordered.keys()]).toEqual(Array.from({ length: 1_000 }, (_, i) => `quote-${199_000 + i}`));
  });

  it('keeps the order across many shards and log chunks, through deletes and keys set again', () => {
    const ids = Array.from({ length: 20_000 }, () => randomUUID());
    const ordered = new OrderedShardedMap<string, number>(ids.map((id, i) => [id, i]));
    const map = new Map<string, number>(ids.map((id, i) => [id, i]));
    for (const [i, id] of ids.entries()) {
      if (i % 3 !== 0) continue;
      ordered.delete(id);
      map.delete(id);
    }
    for (const target of [ordered, map]) {
      target.set(ids[1]!, -1); // present: keeps its place
      target.set(ids[0]!, -2); // deleted, set again: goes last
    }
    expect([...ordered]).toEqual([...map]);
    for (const id of ids.slice(5_000, 15_000)) {
      ordered.set(id, 7);
      map.set(id, 7);
    }
    expect([...ordered]).toEqual([...map]);
  });
});
