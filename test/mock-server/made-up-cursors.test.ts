// Made-up cursors over real HTTP (strict mode). A cursor is opaque: the mock issues it with the
// sort keys and id of the last record of a page. One whose keys are not of the kinds its list's
// sort fields have (a string or null where a time is, a key too many, a number where ids are
// uuids) was not issued by the mock, and is refused like garbage: 422 "is not a valid cursor" on
// `cursor`, on the v1 deposit lists and the v3 lists alike, rather than read as a position.
import { beforeEach, describe, expect, it } from 'vitest';
import { failure } from './support/failure.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
useFrozenSandbox({ seed: 42 }, (started) => {
  server = started;
});

/** A cursor as the mock spells one: base64url JSON of the sort, the keys and the id. */
const madeUp = (s: string[], k: unknown[], i: unknown): string => Buffer.from(JSON.stringify({ s, k, i })).toString('base64url');
const refused = { cursor: ['is not a valid cursor'] };

describe('v1 lists', () => {
  beforeEach(async () => {
    for (const order of ['A-1', 'A-2', 'A-3']) await server.v1.createDeposit({ body: { order_id: order, asset: 'BTC' } });
  });

  it('refuse a cursor whose keys are not a creation time and a uuid', async () => {
    const newestFirst = ['-createdAt'];
    for (const cursor of [madeUp(newestFirst, ['x'], 'z'), madeUp(newestFirst, [null], 'z'), madeUp(newestFirst, [1, 2], 'z'), madeUp(newestFirst, [Date.now()], 7)]) {
      const deposits = await failure(server.v1.listDeposits({ query: { cursor, perPage: 2 } }));
      expect([deposits.status, deposits.code, deposits.details], cursor).toEqual([422, 'VALIDATION_ERROR', refused]);
      const addresses = await failure(server.v1.listStaticAddresses({ query: { cursor } }));
      expect([addresses.status, addresses.details], cursor).toEqual([422, refused]);
    }
  });

  it('still walk on with the cursors they issue', async () => {
    const first = (await server.v1.listDeposits({ query: { cursor: '', perPage: 2 } })).body;
    expect(first.meta).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const next = (await server.v1.listDeposits({ query: { cursor: first.meta.nextCursor!, perPage: 2 } })).body;
    expect([...first.data, ...next.data].map((d) => d.orderId).sort()).toEqual(['A-1', 'A-2', 'A-3']);
  });
});

describe('v3 lists', () => {
  it('refuse a cursor whose keys are not of the kinds of the sort fields', async () => {
    const orders = [madeUp(['-created_at'], ['x'], 'z'), madeUp(['-created_at'], [null], 1), madeUp(['-created_at'], [Date.now()], 'z')];
    for (const cursor of orders) {
      const error = await failure(server.v3.listOrders({ query: { pagination: 'cursor', cursor } }));
      expect([error.status, error.code, error.details], cursor).toEqual([422, 'validation_error', refused]);
    }
    const byName = await failure(server.v3.listRoutes({ query: { pagination: 'cursor', sort: ['name'], cursor: madeUp(['name'], [5], 1) } }));
    expect([byName.status, byName.details]).toEqual([422, refused]);
    const events = await failure(server.v3.listWebhookEvents({ query: { pagination: 'cursor', cursor: madeUp(['-created_at'], ['x'], 'z') } }));
    expect([events.status, events.details]).toEqual([422, refused]);
  });

  it('take null where a sort field may be null, and walk on with the cursors they issue', async () => {
    const completed = await server.v3.listOrders({ query: { pagination: 'cursor', sort: ['completed_at'], cursor: madeUp(['completed_at'], [null], 0) } });
    expect(completed.status).toBe(200);
    const first = (await server.v3.listRoutes({ query: { pagination: 'cursor', sort: ['name'], per_page: 3 } })).body;
    const meta = first.meta.pagination;
    if (meta.mode !== 'cursor' || meta.next_cursor === null) throw new Error('expected a next cursor');
    const next = await server.v3.listRoutes({ query: { pagination: 'cursor', sort: ['name'], per_page: 3, cursor: meta.next_cursor } });
    expect(next.body.result.routes).toHaveLength(3);
  });
});
