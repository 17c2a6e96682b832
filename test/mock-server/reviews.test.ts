// Reviews over real HTTP through the generated ExchangeV3Client (strict mode): the client's own
// reviews with every filter and sort, page and cursor walks, and a review of a completed order
// (one per order, pending moderation), with the refusals of the contract.
import { describe, expect, it } from 'vitest';
import { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import type { Review } from '../../generated/exchange-v3/types.js';
import type { OrderMachineEvent } from '../../generated/sandbox-control/types.js';
import { btcToUsdtOrder } from './support/exchange-order.js';
import { failure } from './support/failure.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
useFrozenSandbox({ seed: 94 }, (started) => {
  server = started;
});

type ReviewQuery = NonNullable<Parameters<ExchangeV3Client['listReviews']>[0]>['query'];

async function reviews(query: ReviewQuery = {}, client = server.v3): Promise<Review[]> {
  return (await client.listReviews({ query: { per_page: 100, ...query } })).body.result.reviews;
}

async function newClient(): Promise<ExchangeV3Client> {
  const minted = await server.control.mintToken();
  return new ExchangeV3Client({ baseUrl: server.url, token: minted.body.result.token, retry: false });
}

/** The public_id of an order of the client, completed unless other events are named. */
async function order(client: ExchangeV3Client, events?: OrderMachineEvent[]): Promise<string> {
  return (await btcToUsdtOrder(server, client, events === undefined ? {} : { events })).public_id;
}

const text = 'Fast exchange, the coins arrived ten minutes after payment.';

describe('listReviews', () => {
  it("lists the client's own reviews only, newest first by default", async () => {
    const all = await reviews();
    expect(all.length).toBeGreaterThan(5);
    const times = all.map((r) => Date.parse(r.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(await reviews({}, await newClient())).toEqual([]);
  });

  it('filters by status (comma list) and by rating bounds, each including and excluding', async () => {
    const all = await reviews();
    const check = async (query: ReviewQuery, keep: (r: Review) => boolean) => {
      const expected = all.filter(keep).map((r) => r.id);
      expect(expected.length, JSON.stringify(query)).toBeGreaterThan(0);
      expect(expected.length, JSON.stringify(query)).toBeLessThan(all.length);
      expect((await reviews(query)).map((r) => r.id)).toEqual(expected);
    };
    const statuses = [...new Set(all.map((r) => r.status))];
    expect(statuses.length).toBeGreaterThan(1);
    await check({ 'filter[status]': [statuses[0]!] }, (r) => r.status === statuses[0]);
    await check({ 'filter[status]': statuses.slice(0, 2) }, (r) => statuses.slice(0, 2).includes(r.status));
    const ratings = all.map((r) => r.rating).sort();
    const low = ratings[0]!;
    const high = ratings.at(-1)!;
    expect(low).toBeLessThan(high);
    await check({ 'filter[rating_min]': high }, (r) => r.rating >= high);
    await check({ 'filter[rating_max]': low }, (r) => r.rating <= low);
    await check({ 'filter[rating_min]': low + 1, 'filter[rating_max]': high }, (r) => r.rating > low && r.rating <= high);
  });

  it('sorts by created_at and rating either way', async () => {
    const keys = { created_at: (r: Review) => Date.parse(r.created_at), rating: (r: Review) => r.rating };
    for (const [field, key] of Object.entries(keys)) {
      for (const term of [field, `-${field}`]) {
        const values = (await reviews({ sort: [term] as ReviewQuery extends { sort?: infer S } ? S : never })).map(key);
        const ascending = [...values].sort((a, b) => a - b);
        expect(values, term).toEqual(term.startsWith('-') ? ascending.reverse() : ascending);
      }
    }
  });

  it('walks pages and cursors over the same reviews', async () => {
    const all = (await reviews()).map((r) => r.id);
    const paged: number[] = [];
    for (let page = 1; paged.length < all.length; page += 1) paged.push(...(await reviews({ per_page: 5, page })).map((r) => r.id));
    expect(paged).toEqual(all);
    const cursored: number[] = [];
    let cursor: string | undefined;
    do {
      const { body } = await server.v3.listReviews({ query: { per_page: 4, pagination: 'cursor', ...(cursor ? { cursor } : {}) } });
      cursored.push(...body.result.reviews.map((r) => r.id));
      const meta = body.meta.pagination;
      cursor = meta.mode === 'cursor' && meta.next_cursor !== null ? meta.next_cursor : undefined;
    } while (cursor !== undefined);
    expect(cursored).toEqual(all);
  });
});

describe('createReview', () => {
  it('reviews a completed order once, pending moderation, and lists it', async () => {
    const client = await newClient();
    const publicId = await order(client);
    const { status, body } = await client.createReview({ body: { order: publicId, rating: 4, text: `  ${text}  `, author_name: 'Alice S.' } });
    expect(status).toBe(201);
    expect(body.result.review).toMatchObject({ order_public_id: publicId, rating: 4, text, author_name: 'Alice S.', status: 'pending_moderation', created_at: server.sandbox.clock.now().toISOString() });
    expect(await reviews({}, client)).toEqual([body.result.review]);

    const again = await failure(client.createReview({ body: { order: publicId, rating: 5, text, author_name: 'Alice S.' } }));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'invalid_state_transition' } });
  });

  it('is published or rejected by staff once; the status filter follows, and a second decision is 409', async () => {
    const client = await newClient();
    const written = [];
    for (let i = 0; i < 2; i += 1) {
      const publicId = await order(client);
      written.push((await client.createReview({ body: { order: publicId, rating: 5, text, author_name: 'Alice S.' } })).body.result.review);
    }
    const [toPublish, toReject] = written as [Review, Review];
    const published = await server.control.moderateReview({ path: { review: toPublish.id }, body: { decision: 'publish' } });
    expect(published.body.result.review).toEqual({ ...toPublish, status: 'published' });
    await server.control.moderateReview({ path: { review: toReject.id }, body: { decision: 'reject' } });
    expect((await reviews({ 'filter[status]': ['published'] }, client)).map((r) => r.id)).toEqual([toPublish.id]);
    expect((await reviews({ 'filter[status]': ['rejected'] }, client)).map((r) => r.id)).toEqual([toReject.id]);

    const again = await failure(server.control.moderateReview({ path: { review: toPublish.id }, body: { decision: 'reject' } }));
    expect([again.status, again.code, again.details]).toEqual([409, 'invalid_state_transition', { decision: ['reject is not allowed from published (published is final)'] }]);
    const unknown = await failure(server.control.moderateReview({ path: { review: 999_999 }, body: { decision: 'publish' } }));
    expect([unknown.status, unknown.code]).toEqual([404, 'not_found']);
  });

  it('refuses an order that is not completed, unknown or another client’s with 422 on order', async () => {
    const client = await newClient();
    const unpaid = await order(client, []);
    const mine = await order(client);
    const stranger = await newClient();
    for (const [who, ref] of [[client, unpaid], [client, 'ZZZZZZZZZZ'], [stranger, mine]] as const) {
      const error = await failure(who.createReview({ body: { order: ref, rating: 5, text, author_name: 'Alice S.' } }));
      expect(error.status).toBe(422);
      expect(error.body).toMatchObject({ error: { code: 'validation_error', details: { order: [expect.any(String)] } } });
    }
  });

  it('refuses blank text and names with details per field, and bad shapes through the schema', async () => {
    const client = await newClient();
    const publicId = await order(client);
    const blank = await failure(client.createReview({ body: { order: publicId, rating: 5, text: '   a    b    ', author_name: '   ' } }));
    expect(blank.status).toBe(422);
    expect(blank.body).toMatchObject({ error: { details: { text: [expect.any(String)], author_name: [expect.any(String)] } } });
    const outOfRange = await failure(client.createReview({ body: { order: publicId, rating: 6, text, author_name: 'A' } }));
    expect(outOfRange.status).toBe(422);
    // Nothing was created by the refusals.
    expect(await reviews({}, client)).toEqual([]);
  });
});
