// The generated idempotency and limit-header middleware (<contract>Idempotency(store),
// <contract>Limits(meter)) behind the security middleware, over real HTTP: a repeated request is
// replayed with the contract's replayed header, a reused key answers the catalog's conflict code,
// a malformed key the validation code; every metered answer carries the declared limit headers,
// and a refused one the catalog's rate-limit code with Retry-After. v1 signs its requests and
// has its own key header and codes.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { createDepositV1Router, depositV1Idempotency, depositV1RoutesBasePath, depositV1Security } from '../../generated/deposit-v1/routes.js';
import { createHmacSigner } from '../../generated/runtime/client-signing.js';
import {
  createExchangeV3Router,
  exchangeV3Idempotency,
  exchangeV3LimitHeaders,
  exchangeV3Limits,
  exchangeV3RoutesBasePath,
  exchangeV3Security,
  exchangeV3Success,
  keepRawBody,
  type ExchangeV3LimitWindow,
  type IdempotencyStore,
  type LimitMeter,
  type RouteDefinition,
  type StoredAnswer,
} from '../../generated/exchange-v3/routes.js';

let server: Server;
let base: string;
let reviewsWritten = 0;
let depositsRefused = 0;
/** Holds the answer of a review whose text is `slowText` until released. */
const slowText = 'a slow review that waits';
let releaseSlow: () => void = () => undefined;
let startedSlow: () => void = () => undefined;
const slowStarted = new Promise<void>((resolve) => (startedSlow = resolve));

/** A store as small as the port allows: one map, reserve without an await. */
function memoryStore(): IdempotencyStore {
  const records = new Map<string, { fingerprint: string; answer?: StoredAnswer }>();
  const id = (slot: { caller: { id?: string | undefined } | undefined; key: string }) => `${slot.caller?.id}\n${slot.key}`;
  return {
    reserve(slot, fingerprint) {
      const held = records.get(id(slot));
      if (held === undefined) {
        records.set(id(slot), { fingerprint });
        return { kind: 'reserved' };
      }
      return held.answer === undefined ? { kind: 'in-flight', fingerprint: held.fingerprint } : { kind: 'stored', answer: held.answer };
    },
    complete(slot, answer) {
      records.get(id(slot))!.answer = answer;
    },
    release(slot) {
      records.delete(id(slot));
    },
  };
}

/** Three requests a minute per caller in the rate window; the quota windows never refuse. */
const meter: LimitMeter<ExchangeV3LimitWindow> = (() => {
  const counts = new Map<string, number>();
  return {
    meter(caller) {
      const used = counts.get(caller?.id ?? '') ?? 0;
      const refused = used >= 3;
      if (!refused) counts.set(caller?.id ?? '', used + 1);
      const reset = 1_900_000_000;
      return {
        windows: {
          rate: { limit: 3, remaining: Math.max(0, 3 - used - 1), reset },
          daily: { limit: 1000, remaining: 1000 - used - 1, reset },
          monthly: { limit: 9000, remaining: 9000 - used - 1, reset },
        },
        refused: refused ? { window: 'rate', retryAfterSeconds: 42 } : undefined,
      };
    },
  };
})();

beforeAll(async () => {
  const app = express();
  app.use(express.json({ verify: keepRawBody }));
  const steps = [
    exchangeV3Security({ bearerToken: (token) => ({ id: token, scopes: ['reviews:write'] }) }),
    exchangeV3Limits(meter),
    exchangeV3Idempotency(memoryStore()),
  ];
  const routeMiddleware = (route: RouteDefinition): RequestHandler[] => steps.flatMap((step) => step(route));
  app.use(exchangeV3RoutesBasePath, createExchangeV3Router({
    createReview: async (request, context) => {
      reviewsWritten += 1;
      if (request.body.text === slowText) {
        startedSlow();
        await new Promise<void>((resolve) => (releaseSlow = resolve));
      }
      const { order, rating, text, author_name } = request.body;
      return exchangeV3Success('createReview', context, 201, {
        review: { id: reviewsWritten, order_public_id: order, rating, text, author_name, status: 'pending_moderation', created_at: '2026-11-28T07:00:00Z' },
      });
    },
  }, { routeMiddleware }));
  const depositSteps = [depositV1Security({ apiKey: (key) => (key === 'site-key' ? { id: 'site', scopes: [], signingSecret: 'site-secret' } : undefined) }), depositV1Idempotency(memoryStore())];
  app.use(depositV1RoutesBasePath, createDepositV1Router({
    // A final answer that is not a success is kept and replayed all the same.
    createDeposit: () => ({ status: 422, body: { error: { code: 'VALIDATION_ERROR', message: `refusal ${(depositsRefused += 1)}` }, requestId: 'req-1' } }),
  }, { routeMiddleware: (route) => depositSteps.flatMap((step) => step(route)) }));
  server = app.listen(0);
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const review = (text: string) => ({ order: 'W9D3F7H1J5', rating: 5, text, author_name: 'Ada' });

/** POSTs a review (serialised, or a string sent as it is) as `token` with the idempotency key; the status, headers and body. */
async function writeReview(token: string, key: string | undefined, body: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  if (key !== undefined) headers['idempotency-key'] = key;
  const response = await fetch(`${base}/api/v3/private/reviews`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as { result?: { review: { id: number } }; error?: { code: string; details?: unknown } } };
}

describe('exchangeV3Idempotency', () => {
  it('replays a repeated request with Idempotent-Replayed: true and runs it once', async () => {
    const before = reviewsWritten;
    const first = await writeReview('replay-caller', 'review-key-0001', review('Fast and friendly exchange.'));
    const again = await writeReview('replay-caller', 'review-key-0001', review('Fast and friendly exchange.'));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(reviewsWritten - before).toBe(1);
  });

  it('refuses the key reused with another body: 409 idempotency_conflict; another caller\'s key is its own', async () => {
    await writeReview('reuse-caller', 'review-key-0002', review('The first text of this key.'));
    const reused = await writeReview('reuse-caller', 'review-key-0002', review('Another text for the same key.'));
    expect(reused).toMatchObject({ status: 409, body: { error: { code: 'idempotency_conflict' } } });
    expect((await writeReview('other-caller', 'review-key-0002', review('Another text for the same key.'))).status).toBe(201);
  });

  it('replays the same data serialised another way: keys reordered, pretty-printed', async () => {
    const before = reviewsWritten;
    const { text, ...rest } = review('The same review, written out twice.');
    const first = await writeReview('meaning-caller', 'review-key-0004', { ...rest, text });
    const reordered = await writeReview('meaning-caller', 'review-key-0004', { text, ...rest });
    const pretty = await writeReview('meaning-caller', 'review-key-0004', JSON.stringify({ ...rest, text }, null, 2));
    expect(first.status).toBe(201);
    for (const repeat of [reordered, pretty]) {
      expect(repeat).toMatchObject({ status: 201, body: first.body });
      expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(reviewsWritten - before).toBe(1);
  });

  it('answers a body nested tens of thousands deep, which its fingerprint reads, with the validation code', async () => {
    const depth = 40_000; // 80 KB of brackets: within the JSON parser's limit
    const response = await fetch(`${base}/api/v3/private/reviews`, {
      method: 'POST',
      headers: { authorization: 'Bearer deep-caller', 'content-type': 'application/json', 'idempotency-key': 'review-key-0005' },
      body: `${'['.repeat(depth)}${']'.repeat(depth)}`,
    });
    expect({ status: response.status, text: (await response.text()).slice(0, 120) }).toMatchObject({ status: 422, text: expect.stringContaining('validation_error') });
  });

  it('refuses a repeat while the first request still runs, then replays its answer', async () => {
    const first = writeReview('slow-caller', 'review-key-0003', review(slowText));
    await slowStarted;
    const during = await writeReview('slow-caller', 'review-key-0003', review(slowText));
    releaseSlow();
    expect(during).toMatchObject({ status: 409, body: { error: { code: 'idempotency_conflict' } } });
    expect((await first).status).toBe(201);
    expect((await writeReview('slow-caller', 'review-key-0003', review(slowText))).headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers a key outside the declared bounds with the validation code, naming the header', async () => {
    const short = await writeReview('bounds-caller', 'short', review('A key that is too short.'));
    expect(short).toMatchObject({ status: 422, body: { error: { code: 'validation_error', details: { 'idempotency-key': [expect.any(String)] }, locations: { 'idempotency-key': 'header' } } } });
  });
});

describe('exchangeV3Limits', () => {
  it('sets every declared limit header, then refuses with rate_limit_exceeded and Retry-After', async () => {
    const answers = [];
    for (const text of ['One review to count.', 'Two reviews to count.', 'Three reviews to count.', 'Four reviews to count.']) {
      answers.push(await writeReview('metered-caller', undefined, review(text)));
    }
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 429]);
    for (const answer of answers) {
      for (const { header } of exchangeV3LimitHeaders) expect(answer.headers.get(header), header).toMatch(/^\d+$/);
    }
    expect(answers[0]!.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(answers[3]!.body.error?.code).toBe('rate_limit_exceeded');
    expect(answers[3]!.headers.get('retry-after')).toBe('42');
    expect(answers[3]!.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});

describe('depositV1Idempotency', () => {
  /** POSTs a deposit signed as the generated client signs it, with X-Idempotency-Key. */
  async function createDeposit(orderId: string) {
    const url = new URL('/v1/public/deposits', base);
    const body = JSON.stringify({ order_id: orderId, asset: 'USDT_TRON' });
    const headers = new Headers({ 'content-type': 'application/json', 'x-idempotency-key': 'deposit-key-0001' });
    await createHmacSigner(depositV1SignatureScheme, { key: 'site-key', secret: 'site-secret' })({ method: 'POST', url, headers, body });
    const response = await fetch(url, { method: 'POST', headers, body });
    return { status: response.status, replayed: response.headers.get('idempotent-replayed'), body: (await response.json()) as { error: { code: string; message: string } } };
  }

  it('replays a signed repeat and refuses the key for another body with IDEMPOTENCY_CONFLICT', async () => {
    const first = await createDeposit('inv-1');
    const again = await createDeposit('inv-1');
    const reused = await createDeposit('inv-2');
    expect(first).toEqual({ status: 422, replayed: null, body: { error: { code: 'VALIDATION_ERROR', message: 'refusal 1' }, requestId: 'req-1' } });
    expect(again).toEqual({ ...first, replayed: 'true' });
    expect(reused).toMatchObject({ status: 409, body: { error: { code: 'IDEMPOTENCY_CONFLICT' } } });
    expect(depositsRefused).toBe(1);
  });
});
