// The structures behind lists and timers at scale, against reference models: the chunked keyset
// index (thousands of records, so chunks split and empty out) in both key modes, partitions of a
// listable collection, and the due queue a tick takes due records from.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DueQueue } from '../../mock-server/store/due-queue.js';
import { KeysetIndex } from '../../mock-server/store/keyset-index.js';
import { ListableCollection } from '../../mock-server/store/list-records.js';
import { key } from '../../mock-server/store/sort-keys.js';

interface Row {
  id: number;
  owner: string;
  created: number;
  score: number;
}

/** Reference order: created desc, then id desc. */
const newestFirst = (a: Row, b: Row) => b.created - a.created || b.id - a.id;

function rowsOf(seed: number, count: number): Row[] {
  // A small LCG: deterministic rows with many ties on `created`.
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
  return Array.from({ length: count }, (_, i) => ({ id: i + 1, owner: `o${next() % 3}`, created: next() % 50, score: next() % 7 }));
}

describe('KeysetIndex across many chunks', () => {
  it('property: inserts in any order, swaps and deletes keep the reference order (fixed keys)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1500, max: 5000 }), (seed, count) => {
        const rows = rowsOf(seed, count);
        const index = new KeysetIndex<Row>({ id: (r) => r.id, fields: [{ name: 'created', direction: 'desc', value: (r) => r.created }], fixedKeys: true });
        for (const row of rows) index.upsert(row);
        // An upsert of an indexed record swaps the object and keeps one entry.
        const swapped = rows.map((row) => (row.id % 5 === 0 ? { ...row, score: -1 } : row));
        for (const row of swapped) if (row.score === -1) index.upsert(row);
        // Scattered deletes, and a contiguous run of the order long enough to empty whole chunks.
        const isGone = (row: Row) => row.id % 3 === 0 || (row.created >= 10 && row.created < 30);
        const gone = swapped.filter(isGone);
        for (const row of gone) expect(index.delete(row.id, row)).toBe(true);
        expect(index.delete(gone[0]!.id, gone[0]!)).toBe(false);
        const want = swapped.filter((row) => !isGone(row)).sort(newestFirst);
        expect([...index.values()]).toEqual(want);
        expect(index.size).toBe(want.length);
        // Offsets and keyset positions land on the right record across chunk boundaries.
        for (const offset of [0, 1023, 1024, 1025, want.length - 1, want.length]) {
          expect(index.page(offset, 3).items).toEqual(want.slice(offset, offset + 3));
          if (offset > 0 && offset <= want.length) {
            expect(index.after(index.keyOf(want[offset - 1]!), 3).items).toEqual(want.slice(offset, offset + 3));
          }
        }
      }),
      { numRuns: 15 },
    );
  });

  it('property: records whose sort value changes move within a large index (stored keys)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), (seed) => {
        const rows = rowsOf(seed, 4000);
        const index = new KeysetIndex<Row>({ id: (r) => r.id, fields: [{ name: 'score', direction: 'asc', value: (r) => r.score }] });
        for (const row of rows) index.upsert(row);
        const moved = rows.map((row) => (row.id % 4 === 0 ? { ...row, score: (row.score * 3 + 1) % 7 } : row));
        for (const row of moved) if (row.id % 4 === 0) index.upsert(row);
        for (const row of moved) if (row.id % 7 === 0) index.delete(row.id);
        const want = moved.filter((row) => row.id % 7 !== 0).sort((a, b) => a.score - b.score || a.id - b.id);
        expect([...index.values()]).toEqual(want);
      }),
      { numRuns: 10 },
    );
  });
});

describe('ListableCollection partitions', () => {
  it('keeps each owner its own index, from the first record on, and builds other sorts from it', () => {
    const rows = rowsOf(7, 3000);
    const collection = new ListableCollection<Row>({
      id: key.number((r) => r.id),
      fields: { created: key.number((r) => r.created), score: key.number((r) => r.score) },
      fixedFields: ['created'],
      defaultSort: [{ field: 'created', direction: 'desc' }],
      partitions: { owner: (r) => r.owner },
    });
    for (const row of rows) collection.upsert(row);
    for (const owner of ['o0', 'o1', 'o2']) {
      const mine = rows.filter((r) => r.owner === owner);
      const scope = { partition: 'owner', key: owner };
      expect([...collection.index([{ field: 'created', direction: 'desc' }], scope).values()]).toEqual([...mine].sort(newestFirst));
      expect([...collection.index([{ field: 'score', direction: 'asc' }], scope).values()]).toEqual([...mine].sort((a, b) => a.score - b.score || a.id - b.id));
    }
    // Writes after the indexes exist reach the owner's indexes only.
    collection.upsert({ id: 9001, owner: 'o1', created: 99, score: 0 });
    collection.delete(rows.find((r) => r.owner === 'o1')!.id);
    const o1 = collection.index([{ field: 'created', direction: 'desc' }], { partition: 'owner', key: 'o1' });
    expect([...o1.values()][0]!.id).toBe(9001);
    expect(o1.size).toBe(rows.filter((r) => r.owner === 'o1').length);
    expect(collection.index([{ field: 'created', direction: 'desc' }], { partition: 'owner', key: 'nobody' }).size).toBe(0);
    expect(() => collection.index([{ field: 'created', direction: 'desc' }], { partition: 'nope', key: 'o1' })).toThrow(/no partition nope/);
  });
});

describe('DueQueue', () => {
  interface Timer {
    seq: number;
    dueAt: number | null;
  }

  it('property: takes exactly the records due by now, each once, in creation order, whatever was rescheduled', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }), { maxLength: 60 }),
        fc.array(fc.tuple(fc.nat(), fc.option(fc.integer({ min: 0, max: 100 }), { nil: null })), { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 5 }),
        (initial, changes, nows) => {
          const queue = new DueQueue<Timer>({ dueAt: (t) => t.dueAt, creationOrder: (a, b) => a.seq - b.seq });
          const timers = initial.map((dueAt, seq) => ({ seq, dueAt }));
          for (const timer of timers) queue.schedule(timer);
          for (const [pick, dueAt] of changes) {
            const timer = timers[pick % Math.max(1, timers.length)];
            if (timer === undefined) continue;
            timer.dueAt = dueAt;
            queue.schedule(timer);
          }
          const taken = new Set<Timer>();
          for (const now of [...nows].sort((a, b) => a - b)) {
            const due = queue.takeDue(now);
            const want = timers.filter((t) => !taken.has(t) && t.dueAt !== null && t.dueAt <= now);
            expect(due).toEqual(want);
            for (const timer of due) taken.add(timer);
          }
        },
      ),
    );
  });
});
