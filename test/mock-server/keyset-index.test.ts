// The keyset index and the list facade: walking every page or every cursor returns each record
// once in sort order (also while records come and go between cursor pages), a page read touches
// O(page + log n) records, and filters hold while walking.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeysetIndex, type KeysetPosition } from '../../mock-server/store/keyset-index.js';
import { v3ListRequest, type ListContract, type ListRequest, type SortTerm, type V3PaginationMeta } from '../../mock-server/store/list-query.js';
import { compareAmounts } from '../../mock-server/decimal.js';
import { ListableCollection, filterPredicate, listRecords, match } from '../../mock-server/store/list-records.js';
import { OrderedShardedMap } from '../../mock-server/store/ordered-sharded-map.js';
import { key, listKeys } from '../../mock-server/store/sort-keys.js';

interface Row {
  id: number;
  created_at: number;
  name: string;
  score: number | null;
}

const fieldNames = ['created_at', 'name', 'score'] as const;
const rowId = key.number((r: Row) => r.id);
const rowFields = { id: rowId, created_at: key.number((r: Row) => r.created_at), name: key.string((r: Row) => r.name), score: key.numberOrNull((r: Row) => r.score) };

// A test-only contract: every field sortable both ways; small pages so walks take many steps.
const allowed = [...fieldNames, 'id'].flatMap((field) => [field, `-${field}`]);
const contract: ListContract = { operationId: 'test', pageDefault: 1, perPageDefault: 3, perPageMaximum: 100, modeDefault: 'page', sort: { allowed, default: ['-created_at'] } };

const rowArbitrary = fc.record({
  // Few distinct values, so ties (and the id tie-breaker) are common.
  created_at: fc.integer({ min: 0, max: 6 }),
  name: fc.constantFrom('a', 'b', 'B', 'c', ''),
  score: fc.option(fc.integer({ min: -2, max: 2 }), { nil: null }),
});
const rowsArbitrary = fc.array(rowArbitrary, { maxLength: 60 }).map((rows) => rows.map((row, i) => ({ id: i + 1, ...row })));
const sortArbitrary = fc
  .uniqueArray(fc.constantFrom(...fieldNames, 'id'), { maxLength: 3 })
  .chain((fields) => fc.tuple(...fields.map((field) => fc.constantFrom(field, `-${field}`))))
  .map((terms) => [...terms]);

/** The reference order, written independently of the index: null < numbers < strings; id last in the last field's direction. */
function referenceCompare(sort: readonly string[]): (a: Row, b: Row) => number {
  const terms = sort.map((term) => ({ field: term.replace(/^-/, '') as keyof Row, sign: term.startsWith('-') ? -1 : 1 }));
  const base = (x: unknown, y: unknown): number => {
    if (x === y) return 0;
    if (x === null) return -1;
    if (y === null) return 1;
    return (x as number | string) < (y as number | string) ? -1 : 1;
  };
  const idSign = terms.at(-1)?.sign ?? 1;
  return (a, b) => {
    for (const { field, sign } of terms) {
      const order = base(a[field], b[field]) * sign;
      if (order !== 0) return order;
    }
    return (a.id - b.id) * idSign;
  };
}

function collectionOf(rows: readonly Row[]): ListableCollection<Row> {
  const collection = new ListableCollection<Row>({ id: rowId, fields: rowFields });
  for (const row of rows) collection.upsert(row);
  return collection;
}

function request(query: Parameters<typeof v3ListRequest>[0]): ListRequest<'v3'> {
  const result = v3ListRequest(query, contract, listKeys(rowFields, rowId));
  if (!result.ok) throw new Error(JSON.stringify(result.details));
  return result.request;
}

describe('KeysetIndex', () => {
  it('keeps records ordered through upserts, moves and deletes', () => {
    const index = new KeysetIndex<Row>({ id: (r) => r.id, fields: [{ name: 'created_at', direction: 'desc', value: (r) => r.created_at }] });
    for (const [id, created_at] of [[1, 5], [2, 7], [3, 5], [4, 1]] as const) index.upsert({ id, created_at, name: '', score: null });
    expect([...index.values()].map((r) => r.id)).toEqual([2, 3, 1, 4]);
    index.upsert({ id: 4, created_at: 9, name: '', score: null });
    expect(index.delete(3)).toBe(true);
    expect(index.delete(3)).toBe(false);
    expect([...index.values()].map((r) => r.id)).toEqual([4, 2, 1]);
    expect(index.size).toBe(3);
    expect(index.spec).toEqual(['-created_at']);
  });

  it('reads after a position whose record is gone', () => {
    const index = new KeysetIndex<Row>({ id: (r) => r.id, fields: [{ name: 'created_at', direction: 'asc', value: (r) => r.created_at }] });
    index.load([1, 2, 3, 4].map((id) => ({ id, created_at: id * 10, name: '', score: null })));
    const page = index.after({ values: [25], id: 999 }, 10);
    expect(page.items.map((r) => r.id)).toEqual([3, 4]);
    expect(page.hasMore).toBe(false);
  });

  it('property: upserts and deletes in any order leave the reference order', () => {
    fc.assert(
      fc.property(rowsArbitrary, sortArbitrary, fc.array(fc.nat(), { maxLength: 20 }), (rows, sort, deletions) => {
        const collection = collectionOf(rows);
        const index = collection.index(sort.map((t) => ({ field: t.replace(/^-/, ''), direction: t.startsWith('-') ? 'desc' : 'asc' })));
        // Updates after the index exists must move records within it.
        const updated = rows.map((row) => ({ ...row, created_at: (row.created_at * 7 + row.id) % 5 }));
        for (const row of updated) collection.upsert(row);
        const gone = new Set(deletions.map((n) => (rows.length === 0 ? 0 : (n % rows.length) + 1)));
        for (const id of gone) collection.delete(id);
        const want = updated.filter((r) => !gone.has(r.id)).sort(referenceCompare(sort));
        expect([...index.values()]).toEqual(want);
      }),
    );
  });

  it('property: a load orders every record as the reference does, over fixed keys or kept ones', () => {
    fc.assert(
      fc.property(rowsArbitrary, sortArbitrary, fc.boolean(), (rows, sort, fixed) => {
        const terms: SortTerm[] = sort.map((t) => ({ field: t.replace(/^-/, ''), direction: t.startsWith('-') ? 'desc' : 'asc' }));
        const collection = new ListableCollection<Row>({
          id: rowId,
          fields: rowFields,
          fixedFields: fixed ? [...fieldNames, 'id'] : [],
          partitions: { parity: (r) => r.id % 2 },
          defaultSort: terms,
        });
        collection.load(new OrderedShardedMap(rows.map((row) => [row.id, row])));
        const want = (rest: number) => rows.filter((row) => row.id % 2 === rest).sort(referenceCompare(sort));
        expect([...collection.index(terms, { partition: 'parity', key: 1 }).values()]).toEqual(want(1));
        expect([...collection.index(terms, { partition: 'parity', key: 0 }).values()]).toEqual(want(0));
        expect([...collection.index(terms).values()]).toEqual([...rows].sort(referenceCompare(sort)));
      }),
    );
  });
});

describe('listRecords: walking all pages', () => {
  it('property: page mode returns every record exactly once, in sort order, with consistent meta', () => {
    fc.assert(
      fc.property(rowsArbitrary, sortArbitrary, fc.integer({ min: 1, max: 7 }), (rows, sort, perPage) => {
        const collection = collectionOf(rows);
        const seen: Row[] = [];
        for (let page = 1; ; page += 1) {
          const { items, meta } = listRecords(collection, request({ page, per_page: perPage, sort }));
          const pagination = meta as Extract<V3PaginationMeta, { mode: 'page' }>;
          expect(pagination.total).toBe(rows.length);
          expect(items.length).toBe(page < pagination.last_page ? perPage : rows.length - (pagination.last_page - 1) * perPage);
          seen.push(...items);
          if (page >= pagination.last_page) break;
        }
        expect(seen).toEqual([...rows].sort(referenceCompare(sort)));
      }),
    );
  });

  it('property: cursor mode returns every record exactly once, in sort order', () => {
    fc.assert(
      fc.property(rowsArbitrary, sortArbitrary, fc.integer({ min: 1, max: 7 }), (rows, sort, perPage) => {
        const collection = collectionOf(rows);
        const seen: Row[] = [];
        let cursor: string | undefined;
        for (let step = 0; ; step += 1) {
          expect(step).toBeLessThanOrEqual(rows.length + 1);
          const { items, meta } = listRecords(collection, request({ pagination: 'cursor', per_page: perPage, sort, ...(cursor === undefined ? {} : { cursor }) }));
          const pagination = meta as Extract<V3PaginationMeta, { mode: 'cursor' }>;
          expect(pagination.cursor).toBe(cursor ?? null);
          seen.push(...items);
          if (!pagination.has_more) {
            expect(pagination.next_cursor).toBeNull();
            break;
          }
          expect(items).toHaveLength(perPage);
          cursor = pagination.next_cursor!;
        }
        expect(seen).toEqual([...rows].sort(referenceCompare(sort)));
      }),
    );
  });

  it('property: cursor walks are stable while records are inserted and deleted between pages', () => {
    const mutation = fc.record({ inserts: fc.array(rowArbitrary, { maxLength: 4 }), deletes: fc.array(fc.nat(), { maxLength: 2 }) });
    fc.assert(
      fc.property(rowsArbitrary, sortArbitrary, fc.integer({ min: 1, max: 5 }), fc.array(mutation, { maxLength: 30 }), (rows, sort, perPage, mutations) => {
        const compare = referenceCompare(sort);
        const collection = collectionOf(rows);
        const live = new Map(rows.map((r) => [r.id, r]));
        const deleted = new Set<number>();
        const insertedAhead = new Set<number>();
        const insertedBehind = new Set<number>();
        const seen: Row[] = [];
        let nextId = rows.length + 1;
        let cursor: string | undefined;
        // Bounded, so a cursor that stops advancing fails the property instead of hanging it.
        const maxSteps = rows.length + mutations.length * 4 + 2;
        for (let step = 0; ; step += 1) {
          expect(step).toBeLessThanOrEqual(maxSteps);
          const { items, meta } = listRecords(collection, request({ pagination: 'cursor', per_page: perPage, sort, ...(cursor === undefined ? {} : { cursor }) }));
          const pagination = meta as Extract<V3PaginationMeta, { mode: 'cursor' }>;
          seen.push(...items);
          if (!pagination.has_more) break;
          cursor = pagination.next_cursor!;
          // Between pages: insert some records (ahead of or behind the last item read) and delete some.
          const last = seen.at(-1)!;
          const change = mutations[step];
          for (const fields of change?.inserts ?? []) {
            const row = { id: nextId++, ...fields };
            (compare(row, last) > 0 ? insertedAhead : insertedBehind).add(row.id);
            collection.upsert(row);
            live.set(row.id, row);
          }
          const ids = [...live.keys()];
          for (const n of change?.deletes ?? []) {
            const id = ids[n % ids.length];
            if (id === undefined || deleted.has(id)) continue;
            collection.delete(id);
            live.delete(id);
            deleted.add(id);
          }
        }
        const seenIds = seen.map((r) => r.id);
        expect(new Set(seenIds).size).toBe(seenIds.length);
        for (let i = 1; i < seen.length; i += 1) expect(compare(seen[i - 1]!, seen[i]!)).toBeLessThan(0);
        for (const row of rows) if (!deleted.has(row.id)) expect(seenIds).toContain(row.id);
        for (const id of insertedAhead) if (!deleted.has(id)) expect(seenIds).toContain(id);
        for (const id of insertedBehind) expect(seenIds).not.toContain(id);
      }),
    );
  });

  it('property: filters apply while walking, in both modes', () => {
    fc.assert(
      fc.property(rowsArbitrary, sortArbitrary, fc.integer({ min: 1, max: 5 }), fc.subarray(['a', 'b', 'B', 'c', '']), fc.integer({ min: 0, max: 6 }), (rows, sort, perPage, names, from) => {
        const collection = collectionOf(rows);
        const filters = { name: names, created_from: from };
        const predicate = filterPredicate<Row>(filters, { name: match.oneOf((r) => r.name), created_from: match.atLeast((r) => r.created_at) });
        const want = rows.filter((r) => names.includes(r.name) && r.created_at >= from).sort(referenceCompare(sort));
        const pages: Row[] = [];
        for (let page = 1; page <= rows.length + 1; page += 1) {
          const { items, meta } = listRecords(collection, request({ page, per_page: perPage, sort }), predicate);
          expect(meta).toMatchObject({ total: want.length });
          pages.push(...items);
        }
        expect(pages).toEqual(want);
        const cursors: Row[] = [];
        let cursor: string | undefined;
        for (let step = 0; ; step += 1) {
          expect(step).toBeLessThanOrEqual(rows.length + 1);
          const { items, meta } = listRecords(collection, request({ pagination: 'cursor', per_page: perPage, sort, ...(cursor === undefined ? {} : { cursor }) }), predicate);
          cursors.push(...items);
          const pagination = meta as Extract<V3PaginationMeta, { mode: 'cursor' }>;
          if (!pagination.has_more) break;
          cursor = pagination.next_cursor!;
        }
        expect(cursors).toEqual(want);
      }),
    );
  });
});

describe('cost of a page read', () => {
  const n = 100_000;
  const log2n = Math.ceil(Math.log2(n + 1));
  // Deterministic pseudo-random rows with many ties on created_at.
  const rows: Row[] = Array.from({ length: n }, (_, i) => ({ id: i + 1, created_at: (i * 7919) % 5000, name: String.fromCharCode(97 + (i % 26)), score: i % 3 === 0 ? null : i % 11 }));
  const collection = collectionOf(rows);
  const sort: SortTerm[] = [{ field: 'created_at', direction: 'desc' }];
  const index = collection.index(sort);

  it('property: page(offset) and after(position) touch at most page + log2(n) + a constant', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: n + 10 }), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: n + 1 }), (offset, limit, createdAt, id) => {
        index.resetMetrics();
        const page = index.page(offset, limit);
        expect(page.items.length).toBe(Math.max(0, Math.min(limit, n - offset)));
        expect(index.metrics.comparisons + index.metrics.visited).toBeLessThanOrEqual(limit + log2n + 2);

        index.resetMetrics();
        const position: KeysetPosition = { values: [createdAt], id };
        index.after(position, limit);
        expect(index.metrics.comparisons).toBeLessThanOrEqual(log2n + 1);
        expect(index.metrics.visited).toBeLessThanOrEqual(limit + 1);
      }),
      { numRuns: 200 },
    );
  });

  it('a cursor walk through listRecords stays O(page) per page', () => {
    let cursor: string | undefined;
    for (let step = 0; step < 20; step += 1) {
      index.resetMetrics();
      const { items, meta } = listRecords(collection, request({ pagination: 'cursor', per_page: 50, sort: ['-created_at'], ...(cursor === undefined ? {} : { cursor }) }));
      expect(items).toHaveLength(50);
      expect(index.metrics.comparisons + index.metrics.visited).toBeLessThanOrEqual(50 + log2n + 2);
      cursor = (meta as Extract<V3PaginationMeta, { mode: 'cursor' }>).next_cursor!;
    }
  });

  it('an insert into the large index is one bisection', () => {
    index.resetMetrics();
    collection.upsert({ id: n + 1, created_at: 2500, name: 'z', score: 1 });
    expect(index.metrics.comparisons).toBeLessThanOrEqual(log2n + 2);
    collection.delete(n + 1);
  });
});

describe('ListableCollection', () => {
  it('keeps a bounded number of sort indexes and rebuilds a dropped one correctly', () => {
    const collection = new ListableCollection<Row>({ id: rowId, fields: rowFields, maxIndexes: 1 });
    const rows = [3, 1, 2].map((id) => ({ id, created_at: id, name: 'x', score: null }));
    for (const row of rows) collection.upsert(row);
    collection.index([{ field: 'created_at', direction: 'asc' }]);
    collection.index([{ field: 'id', direction: 'desc' }]);
    collection.upsert({ id: 4, created_at: 0, name: 'x', score: null });
    expect([...collection.index([{ field: 'created_at', direction: 'asc' }]).values()].map((r) => r.id)).toEqual([4, 1, 2, 3]);
  });

  it('throws for a sort field it does not know (a domain bug, not a client error)', () => {
    expect(() => collectionOf([]).index([{ field: 'nope', direction: 'asc' }])).toThrow(/no sort field nope/);
  });
});

describe('filter helpers', () => {
  it('compares decimal strings by value', () => {
    expect(compareAmounts('10', '9.99')).toBeGreaterThan(0);
    expect(compareAmounts('0010.50', '10.5')).toBe(0);
    expect(compareAmounts('0.015', '0.0151')).toBeLessThan(0);
    expect(compareAmounts('123456789012345678901.1', '123456789012345678901.01')).toBeGreaterThan(0);
  });

  it('matches timestamps, decimals, and nulls never pass a bound', () => {
    const at = match.atLeast<{ t: string | null }>((r) => r.t);
    expect(at({ t: '2026-11-21T12:00:00Z' }, '2026-11-21T11:00:00+00:00')).toBe(true);
    expect(at({ t: null }, '2026-11-21T11:00:00Z')).toBe(false);
    const max = match.atMost<{ amount: string }>((r) => r.amount);
    expect(max({ amount: '100.5' }, '100.50')).toBe(true);
    expect(max({ amount: '100.51' }, '100.5')).toBe(false);
    expect(filterPredicate({}, {})).toBeUndefined();
    expect(() => filterPredicate({ x: 1 }, {})).toThrow(/no matcher for filter x/);
  });
});
