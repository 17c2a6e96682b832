// List queries: contract defaults, query → ListRequest for both families, opaque cursors (never a
// crash on garbage) and the pagination meta of both families, each checked against the contract.
import { readFileSync } from 'node:fs';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listDeposits_response_200 } from '../../generated/deposit-v1/validators.js';
import { listOrders_response_200 } from '../../generated/exchange-v3/validators.js';
import {
  decodeCursor,
  encodeCursor,
  listMeta,
  parseSortTerm,
  v1ListRequest,
  v3ListRequest,
  type ListContract,
  type ListOutcome,
  type ListRequest,
  type SortTerm,
} from '../../mock-server/store/list-query.js';
import { listContract } from '../../mock-server/store/list-contract.js';
import type { ListKeys } from '../../mock-server/store/sort-keys.js';

const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
addFormats(ajv);
const paginationSchema = JSON.parse(readFileSync(new URL('../../contracts/schemas/pagination.v1.json', import.meta.url), 'utf8')) as object;
const validatePagination = ajv.compile(paginationSchema);

const orders = listContract('v3', 'listOrders');
const deposits = listContract('v1', 'listDeposits');
// What the test lists' records are keyed by: orders by numbers (times in ms, amounts, ids), a
// string and a time that may be null; deposits by creation time and uuid.
const orderKeys: ListKeys = {
  fields: { id: 'number', created_at: 'number', updated_at: 'number', completed_at: 'number or null', amount_in: 'number', amount_out: 'number', status: 'string' },
  id: 'number',
};
const depositKeys: ListKeys = { fields: { createdAt: 'number' }, id: 'string' };

describe('listContract', () => {
  it('reads the defaults and bounds of a v3 list from the bundled contract', () => {
    expect(orders).toEqual({
      operationId: 'listOrders',
      pageDefault: 1,
      perPageDefault: 25,
      perPageMaximum: 100,
      modeDefault: 'page',
      sort: { allowed: expect.arrayContaining(['id', '-id', 'created_at', '-created_at']) as unknown, default: ['-created_at'] },
    });
  });

  it('follows $refs to shared sort parameters', () => {
    expect(listContract('v3', 'listWebhookEvents').sort).toEqual({ allowed: ['created_at', '-created_at'], default: ['-created_at'] });
  });

  it('reads a v1 list (perPage, no sort)', () => {
    expect(deposits).toEqual({ operationId: 'listDeposits', pageDefault: 1, perPageDefault: 20, perPageMaximum: 100, modeDefault: 'page', sort: undefined });
  });

  it('fails loudly for an operation that is not a list', () => {
    expect(() => listContract('v3', 'ping')).toThrow(/takes no page/);
    expect(() => listContract('v3', 'noSuchOperation')).toThrow(/no operation/);
  });
});

describe('v3ListRequest', () => {
  const cursorFor = (sort: string[]): string => encodeCursor(sort.map(parseSortTerm), { values: sort.map(() => 5), id: 9 });
  const cases: { name: string; query: Parameters<typeof v3ListRequest>[0]; want: Partial<ListRequest> }[] = [
    { name: 'defaults', query: {}, want: { mode: 'page', page: 1, perPage: 25, sort: [{ field: 'created_at', direction: 'desc' }], filters: {} } },
    { name: 'page and per_page', query: { page: 3, per_page: 10 }, want: { mode: 'page', page: 3, perPage: 10 } },
    { name: 'first cursor page', query: { pagination: 'cursor' }, want: { mode: 'cursor', cursor: null, after: null, perPage: 25 } },
    {
      name: 'cursor alone selects cursor mode',
      query: { cursor: cursorFor(['-created_at']) },
      want: { mode: 'cursor', cursor: cursorFor(['-created_at']), after: { values: [5], id: 9 } },
    },
    { name: 'pagination=page ignores a cursor', query: { pagination: 'page', cursor: 'garbage!' }, want: { mode: 'page', page: 1 } },
    {
      name: 'sort and filters',
      query: { sort: ['-amount_in', 'id'], 'filter[status]': ['paid'], 'filter[amount_min]': '1.5' },
      want: { sort: [{ field: 'amount_in', direction: 'desc' }, { field: 'id', direction: 'asc' }], filters: { status: ['paid'], amount_min: '1.5' } },
    },
  ];
  it.each(cases)('$name', ({ query, want }) => {
    const result = v3ListRequest(query, orders, orderKeys);
    expect(result).toEqual({ ok: true, request: expect.objectContaining({ family: 'v3', ...want }) as unknown });
  });

  it('rejects a cursor issued for another sort order with query.cursor', () => {
    const result = v3ListRequest({ pagination: 'cursor', cursor: cursorFor(['id']), sort: ['-id'] }, orders, orderKeys);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.details['query.cursor']?.[0]).toMatch(/another sort order/);
  });

  it('rejects a sort field the contract does not allow (for callers that skip the validator)', () => {
    const result = v3ListRequest({ sort: ['nope'] }, orders, orderKeys);
    expect(result).toEqual({ ok: false, details: { 'query.sort': [expect.stringMatching(/^must be one of: /) as unknown] } });
  });
});

describe('v1ListRequest', () => {
  const sort = ['-createdAt'];
  const cases: { name: string; query: Parameters<typeof v1ListRequest>[0]; want: Partial<ListRequest> }[] = [
    { name: 'page mode by default', query: {}, want: { mode: 'page', page: 1, perPage: 20, filters: {} } },
    { name: 'empty cursor: first keyset page', query: { cursor: '' }, want: { mode: 'cursor', cursor: null, after: null } },
    { name: 'page wins over cursor', query: { page: 2, cursor: 'not a cursor' }, want: { mode: 'page', page: 2 } },
    { name: 'status filter', query: { status: ['paid', 'paid_over'], perPage: 5 }, want: { perPage: 5, filters: { status: ['paid', 'paid_over'] } } },
  ];
  it.each(cases)('$name', ({ query, want }) => {
    expect(v1ListRequest(query, deposits, sort, depositKeys)).toEqual({
      ok: true,
      request: expect.objectContaining({ family: 'v1', sort: [{ field: 'createdAt', direction: 'desc' }], ...want }) as unknown,
    });
  });

  it('rejects an undecodable cursor with query.cursor', () => {
    expect(v1ListRequest({ cursor: 'eyJ4Ijox' }, deposits, sort, depositKeys)).toEqual({ ok: false, details: { 'query.cursor': ['is not a valid cursor'] } });
  });

  it('rejects a cursor whose keys are not the kinds the list is keyed by with query.cursor', () => {
    const forged = (k: unknown[], i: unknown) => Buffer.from(JSON.stringify({ s: sort, k, i })).toString('base64url');
    for (const cursor of [forged(['x'], 'z'), forged([null], 'z'), forged([], 'z'), forged([1, 2], 'z'), forged([1], 7)]) {
      expect(v1ListRequest({ cursor }, deposits, sort, depositKeys)).toEqual({ ok: false, details: { 'query.cursor': ['is not a valid cursor'] } });
    }
    expect(v1ListRequest({ cursor: forged([1], 'z') }, deposits, sort, depositKeys)).toMatchObject({ ok: true, request: { after: { values: [1], id: 'z' } } });
  });
});

describe('cursors', () => {
  const sortArbitrary = fc.uniqueArray(fc.constantFrom('created_at', 'completed_at', 'status', 'id'), { maxLength: 3 }).chain((fields) =>
    fc.tuple(...fields.map((field) => fc.record({ field: fc.constant(field), direction: fc.constantFrom('asc' as const, 'desc' as const) }))),
  );
  const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
  const valueOfKind = { number, string: fc.string(), 'number or null': fc.option(number, { nil: null }) };
  /** The keys of a record of the list for `sort`: a value of each field's kind. */
  const keysArbitrary = (sort: SortTerm[]) => fc.tuple(...sort.map((term) => valueOfKind[orderKeys.fields[term.field]!]));

  it('round-trip: what encodeCursor makes, decodeCursor reads back for the same sort', () => {
    const sortAndKeys = sortArbitrary.chain((sort: SortTerm[]) => fc.tuple(fc.constant(sort), keysArbitrary(sort)));
    fc.assert(
      fc.property(sortAndKeys, fc.integer(), ([sort, values], id) => {
        const position = { values, id };
        const cursor = encodeCursor(sort, position);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeCursor(cursor, sort, orderKeys)).toEqual({ ok: true, position: JSON.parse(JSON.stringify(position)) as unknown });
      }),
    );
  });

  it('random strings are an error result, never a crash', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.base64String(), fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/)), sortArbitrary, (cursor, sort: SortTerm[]) => {
        const decoded = decodeCursor(cursor, sort, orderKeys);
        expect(typeof decoded.ok).toBe('boolean');
        const result = v3ListRequest({ pagination: 'cursor', cursor, sort: sort.map((t) => (t.direction === 'desc' ? `-${t.field}` : t.field)) }, { ...orders, sort: undefined }, orderKeys);
        if (!decoded.ok) expect(result).toEqual({ ok: false, details: { 'query.cursor': [decoded.message] } });
      }),
    );
  });

  it('well-formed base64url of arbitrary JSON is an error result unless it has the cursor shape', () => {
    fc.assert(
      fc.property(fc.jsonValue(), sortArbitrary, (value, sort: SortTerm[]) => {
        const cursor = Buffer.from(JSON.stringify(value) ?? 'null').toString('base64url');
        const decoded = decodeCursor(cursor, sort, orderKeys);
        if (decoded.ok) {
          expect(decoded.position.values).toHaveLength(sort.length);
          expect(typeof decoded.position.id).toBe('number');
        }
      }),
    );
  });

  it('a cursor edited to another sort, or with values missing, is rejected', () => {
    const sort = [parseSortTerm('-created_at')];
    const cursor = encodeCursor(sort, { values: [1], id: 2 });
    const body = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as Record<string, unknown>;
    const forged = (edit: Record<string, unknown>): string => Buffer.from(JSON.stringify({ ...body, ...edit })).toString('base64url');
    expect(decodeCursor(forged({ s: ['created_at'] }), sort, orderKeys).ok).toBe(false);
    expect(decodeCursor(forged({ k: [] }), sort, orderKeys).ok).toBe(false);
    expect(decodeCursor(forged({ i: { $gt: 1 } }), sort, orderKeys).ok).toBe(false);
    expect(decodeCursor(cursor, [parseSortTerm('created_at')], orderKeys).ok).toBe(false);
    expect(decodeCursor(`${cursor}=`, sort, orderKeys).ok).toBe(false);
  });

  it('a cursor whose keys are of another kind than its sort fields is not valid: a string or null for a time, a number for a string, a string id', () => {
    const invalid = { ok: false, message: 'is not a valid cursor' };
    const forged = (s: string[], k: unknown[], i: unknown): string => Buffer.from(JSON.stringify({ s, k, i })).toString('base64url');
    const decode = (s: string[], k: unknown[], i: unknown) => decodeCursor(forged(s, k, i), s.map(parseSortTerm), orderKeys);
    expect(decode(['-created_at'], ['x'], 'z')).toEqual(invalid);
    expect(decode(['-created_at'], [null], 1)).toEqual(invalid);
    expect(decode(['-created_at'], [true], 1)).toEqual(invalid);
    expect(decode(['-created_at'], [1], 'z')).toEqual(invalid);
    expect(decode(['status', 'id'], [3, 1], 1)).toEqual(invalid);
    // A nullable field takes null; right kinds decode.
    expect(decode(['completed_at'], [null], 1)).toEqual({ ok: true, position: { values: [null], id: 1 } });
    expect(decode(['status', '-id'], ['paid', 2], 2)).toEqual({ ok: true, position: { values: ['paid', 2], id: 2 } });
  });
});

describe('list meta', () => {
  const base = { perPage: 10, sort: [], filters: {} };
  const page = (family: 'v3' | 'v1', pageNumber: number, perPage = 10): ListRequest => ({ ...base, family, mode: 'page', page: pageNumber, perPage });
  const cursor = (family: 'v3' | 'v1', token: string | null): ListRequest => ({ ...base, family, mode: 'cursor', cursor: token, after: null });
  const cases: { name: string; request: ListRequest; outcome: ListOutcome; want: Record<string, unknown> }[] = [
    {
      name: 'v3 empty list',
      request: page('v3', 1),
      outcome: { mode: 'page', itemCount: 0, total: 0 },
      want: { mode: 'page', current_page: 1, per_page: 10, total: 0, last_page: 1, from: null, to: null },
    },
    {
      name: 'v3 one full page',
      request: page('v3', 1),
      outcome: { mode: 'page', itemCount: 10, total: 10 },
      want: { mode: 'page', current_page: 1, per_page: 10, total: 10, last_page: 1, from: 1, to: 10 },
    },
    {
      name: 'v3 last partial page',
      request: page('v3', 3),
      outcome: { mode: 'page', itemCount: 3, total: 23 },
      want: { mode: 'page', current_page: 3, per_page: 10, total: 23, last_page: 3, from: 21, to: 23 },
    },
    {
      name: 'v3 page past the end',
      request: page('v3', 9),
      outcome: { mode: 'page', itemCount: 0, total: 23 },
      want: { mode: 'page', current_page: 9, per_page: 10, total: 23, last_page: 3, from: null, to: null },
    },
    {
      name: 'v3 first cursor page with more',
      request: cursor('v3', null),
      outcome: { mode: 'cursor', hasMore: true, nextCursor: 'abc' },
      want: { mode: 'cursor', per_page: 10, cursor: null, next_cursor: 'abc', has_more: true },
    },
    {
      name: 'v3 last cursor page',
      request: cursor('v3', 'abc'),
      outcome: { mode: 'cursor', hasMore: false, nextCursor: null },
      want: { mode: 'cursor', per_page: 10, cursor: 'abc', next_cursor: null, has_more: false },
    },
    {
      name: 'v1 empty list',
      request: page('v1', 1, 20),
      outcome: { mode: 'page', itemCount: 0, total: 0 },
      want: { page: 1, perPage: 20, total: 0, lastPage: 1, nextCursor: null, hasMore: false },
    },
    {
      name: 'v1 first of several pages',
      request: page('v1', 1),
      outcome: { mode: 'page', itemCount: 10, total: 25 },
      want: { page: 1, perPage: 10, total: 25, lastPage: 3, nextCursor: null, hasMore: true },
    },
    {
      name: 'v1 last partial page',
      request: page('v1', 3),
      outcome: { mode: 'page', itemCount: 5, total: 25 },
      want: { page: 3, perPage: 10, total: 25, lastPage: 3, nextCursor: null, hasMore: false },
    },
    {
      name: 'v1 cursor page with more',
      request: cursor('v1', null),
      outcome: { mode: 'cursor', hasMore: true, nextCursor: 'abc' },
      want: { page: null, perPage: 10, total: null, lastPage: null, nextCursor: 'abc', hasMore: true },
    },
    {
      name: 'v1 last cursor page',
      request: cursor('v1', 'abc'),
      outcome: { mode: 'cursor', hasMore: false, nextCursor: null },
      want: { page: null, perPage: 10, total: null, lastPage: null, nextCursor: null, hasMore: false },
    },
  ];

  it.each(cases)('$name', ({ request, outcome, want }) => {
    const meta = listMeta(request, outcome);
    expect(meta).toEqual(want);
    if (request.family === 'v3') {
      expect(validatePagination(meta), JSON.stringify(validatePagination.errors)).toBe(true);
      const envelope = { state: 0, message: 'OK', result: { orders: [] }, meta: { request_id: 'req_1', correlation_id: null, timestamp: '2026-11-21T12:00:00Z', pagination: meta } };
      expect(listOrders_response_200(envelope), JSON.stringify(listOrders_response_200.errors)).toBe(true);
    } else {
      expect(listDeposits_response_200({ data: [], meta }), JSON.stringify(listDeposits_response_200.errors)).toBe(true);
    }
  });

  it('never gives a next cursor when there is no more', () => {
    expect(listMeta(cursor('v3', null), { mode: 'cursor', hasMore: false, nextCursor: 'stale' })).toMatchObject({ next_cursor: null });
  });

  it('a handmade ListContract works the same as a read one', () => {
    const contract: ListContract = { ...orders, perPageDefault: 7 };
    expect(v3ListRequest({}, contract, orderKeys)).toMatchObject({ ok: true, request: { perPage: 7 } });
  });
});
