// Idempotency keys over real HTTP. A test-only express app runs the idempotency middleware in
// front of a counting handler (it can answer any status on demand, e.g. a 5xx that must not be
// stored): concurrent duplicates execute once, a different request
// with the key gets 409, the window runs on the virtual clock. Then the real app: the key's
// bounds, conflicts and the window for v3 Idempotency-Key and v1 X-Idempotency-Key.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { depositV1Routes } from '../../generated/deposit-v1/routes.js';
import { ApiError, type ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import { exchangeV3Routes } from '../../generated/exchange-v3/routes.js';
import { operationValidators } from '../../generated/exchange-v3/validators.js';
import { VirtualClock } from '../../mock-server/clock.js';
import { v3BodyLimits } from '../../mock-server/http/body-limits.js';
import { readBody } from '../../mock-server/http/body.js';
import { errorHandler } from '../../mock-server/http/error-handler.js';
import { createIdempotency, replayedHeader } from '../../mock-server/http/idempotency.js';
import { requestContext } from '../../mock-server/http/request-context.js';
import { MemoryStore } from '../../mock-server/store/memory/memory-store.js';
import { advance, mintKey, startMock, v1Client, v3Client, type Mock } from './support/keys.js';

// A real idempotent operation of the contract lends the test app its policy and header bounds.
const route = exchangeV3Routes.find((r) => r.idempotency !== undefined && r.body?.contentType === 'application/json')!;
const policy = route.idempotency!;

interface TestApp {
  url: string;
  clock: VirtualClock;
  /** How often the handler ran. */
  runs(): number;
  /** Statuses the next runs answer with (then 201). */
  answerNext(...statuses: number[]): void;
  close(): Promise<void>;
}

async function startTestApp(): Promise<TestApp> {
  const clock = new VirtualClock();
  clock.freeze();
  let runs = 0;
  const queued: number[] = [];
  const idempotency = createIdempotency({
    store: new MemoryStore().idempotency,
    clock,
    maxPerCaller: 100,
    caller: (res) => (typeof res.req.headers['x-test-caller'] === 'string' ? res.req.headers['x-test-caller'] : 'caller-1'),
    conflictCode: 'idempotency_conflict',
    validationCode: 'validation_error',
    fullCode: 'quota_exceeded',
    validators: operationValidators,
  });
  const app = express();
  app.post('/things', requestContext('v3', clock), ...readBody(route, v3BodyLimits), idempotency(route), async (req, res) => {
    runs += 1;
    const run = runs;
    // Stay in flight for a moment so duplicates arrive while this one runs.
    await new Promise((resolve) => setTimeout(resolve, 20));
    res.status(queued.shift() ?? 201).json({ state: 0, result: { run, body: req.body as unknown }, meta: { request_id: 'from-the-handler' } });
  });
  app.use(errorHandler(clock));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/things`,
    clock,
    runs: () => runs,
    answerNext: (...statuses) => queued.push(...statuses),
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

interface Answer {
  status: number;
  body: { result?: { run: number; body: unknown }; error?: { code: string; details?: Record<string, string[]> }; meta?: { request_id: string } };
  replayed: boolean;
  requestId: string | null;
}

async function post(url: string, key: string | undefined, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key !== undefined ? { [policy.header]: key } : {}), ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as Answer['body'],
    replayed: response.headers.get(replayedHeader) === 'true',
    requestId: response.headers.get('x-request-id'),
  };
}

describe('the idempotency middleware (test app with a counting handler)', () => {
  let app: TestApp;

  beforeEach(async () => {
    app = await startTestApp();
    return () => app.close();
  });

  it('runs 200 concurrent identical requests once and answers all with the same body', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, () => post(app.url, 'order-key-0001', { amount: '1' })));
    expect(app.runs()).toBe(1);
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([201]));
    expect(new Set(answers.map((a) => JSON.stringify(a.body.result)))).toEqual(new Set([JSON.stringify({ run: 1, body: { amount: '1' } })]));
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
  });

  it('replays the stored response with this request’s own id', async () => {
    const first = await post(app.url, 'order-key-0002', { amount: '1' });
    const second = await post(app.url, 'order-key-0002', { amount: '1' });
    expect(second).toMatchObject({ status: 201, replayed: true, body: { result: first.body.result } });
    expect(second.requestId).not.toBe(first.requestId);
    expect(second.body.meta?.request_id).toBe(second.requestId);
    expect(app.runs()).toBe(1);
  });

  it('answers 409 idempotency_conflict to the same key with a different body, also while the first runs', async () => {
    const [first, concurrent] = await Promise.all([
      post(app.url, 'order-key-0003', { amount: '1' }),
      new Promise((resolve) => setTimeout(resolve, 5)).then(() => post(app.url, 'order-key-0003', { amount: '2' })),
    ]);
    expect(first.status).toBe(201);
    expect(concurrent).toMatchObject({ status: 409, body: { error: { code: 'idempotency_conflict' } } });
    const later = await post(app.url, 'order-key-0003', { amount: '3' });
    expect(later).toMatchObject({ status: 409, body: { error: { code: 'idempotency_conflict' } } });
    expect(app.runs()).toBe(1);
  });

  it('frees the key when the window passes on the clock', async () => {
    await post(app.url, 'order-key-0004', { amount: '1' });
    await app.clock.advance((policy.windowSeconds - 1) * 1000);
    expect((await post(app.url, 'order-key-0004', { amount: '2' })).status).toBe(409);
    await app.clock.advance(2000); // window + 1 s after the first request
    const fresh = await post(app.url, 'order-key-0004', { amount: '2' });
    expect(fresh).toMatchObject({ status: 201, replayed: false, body: { result: { run: 2 } } });
  });

  it('does not store 5xx or 429 answers: the repeat runs again', async () => {
    app.answerNext(500, 429);
    expect((await post(app.url, 'order-key-0005', { amount: '1' })).status).toBe(500);
    expect((await post(app.url, 'order-key-0005', { amount: '1' })).status).toBe(429);
    expect((await post(app.url, 'order-key-0005', { amount: '1' })).status).toBe(201);
    expect(await post(app.url, 'order-key-0005', { amount: '1' })).toMatchObject({ status: 201, replayed: true });
    expect(app.runs()).toBe(3);
  });

  it('stores a 4xx answer', async () => {
    app.answerNext(404);
    expect((await post(app.url, 'order-key-0006', { amount: '1' })).status).toBe(404);
    expect(await post(app.url, 'order-key-0006', { amount: '1' })).toMatchObject({ status: 404, replayed: true });
    expect(app.runs()).toBe(1);
  });

  it('scopes keys per caller', async () => {
    await post(app.url, 'order-key-0007', { amount: '1' }, { 'x-test-caller': 'a' });
    const other = await post(app.url, 'order-key-0007', { amount: '2' }, { 'x-test-caller': 'b' });
    expect(other).toMatchObject({ status: 201, replayed: false });
  });

  it('passes requests without a key through every time', async () => {
    await post(app.url, undefined, { amount: '1' });
    await post(app.url, undefined, { amount: '1' });
    expect(app.runs()).toBe(2);
  });

  it('rejects a key outside the contract’s bounds with 422 validation_error', async () => {
    const answer = await post(app.url, 'a'.repeat(7), { amount: '1' });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.error?.details ?? {})).toEqual([policy.header.toLowerCase()]);
    expect((await post(app.url, 'a'.repeat(8), { amount: '1' })).status).toBe(201);
    expect(app.runs()).toBe(1);
  });
});

describe('idempotency in the mock', () => {
  let mock: Mock;
  let client: ExchangeV3Client;
  // An invalid body gets a stored 422; a well-formed one is another request under the same key.
  const invalid = { route_id: 'not-a-number' };
  const valid = { route_id: 1, amount: '0.5' };

  beforeAll(async () => {
    mock = await startMock();
    client = v3Client(mock, (await mintKey(mock)).token);
  });

  afterAll(async () => {
    await mock.close();
  });

  async function createQuote(key: string, body: unknown): Promise<{ status: number; code: string | undefined; details: Record<string, string[]> }> {
    try {
      const response = await client.createQuote({ body: body as never, headers: { [policy.header]: key } });
      return { status: response.status, code: undefined, details: {} };
    } catch (error) {
      if (error instanceof ApiError) return { status: error.status, code: error.code, details: error.details };
      throw error;
    }
  }

  it('v3: a 7-character Idempotency-Key → 422 with headers.idempotency-key', async () => {
    const answer = await createQuote('1234567', valid);
    expect(answer).toMatchObject({ status: 422, code: 'validation_error' });
    expect(Object.keys(answer.details)).toEqual([policy.header.toLowerCase()]);
  });

  it('v3: the same key with a different body → 409 idempotency_conflict, free again after the window', async () => {
    expect(await createQuote('quote-key-0001', invalid)).toMatchObject({ status: 422, code: 'validation_error' });
    expect(await createQuote('quote-key-0001', invalid)).toMatchObject({ status: 422, code: 'validation_error' });
    expect(await createQuote('quote-key-0001', valid)).toMatchObject({ status: 409, code: 'idempotency_conflict' });
    await advance(mock, policy.windowSeconds + 1);
    expect((await createQuote('quote-key-0001', valid)).code).not.toBe('idempotency_conflict');
  });

  it('v3: 200 concurrent identical requests are answered once and replayed 199 times', async () => {
    const { token } = await mintKey(mock);
    const answers = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const response = await fetch(`${mock.url}/api/v3${route.path}`, {
          method: route.method.toUpperCase(),
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', [policy.header]: 'quote-key-concurrent' },
          body: JSON.stringify(invalid),
        });
        const body = (await response.json()) as { error: unknown; meta: { request_id: string } };
        return { status: response.status, replayed: response.headers.get(replayedHeader) === 'true', error: JSON.stringify(body.error) };
      }),
    );
    expect(new Set(answers.map((a) => `${a.status} ${a.error}`)).size).toBe(1);
    expect(answers[0]!.status).toBe(422);
    expect(answers.filter((a) => a.replayed)).toHaveLength(199);
  });

  it('v3: a created quote is replayed, not priced again, under the same key', async () => {
    const route = (await client.listRoutes({ query: { per_page: 1 } })).body.result.routes[0]!;
    const body = { route_id: route.id, amount: route.limits.min_give };
    const first = await client.createQuote({ body, headers: { [policy.header]: 'quote-key-0002' } });
    const again = await client.createQuote({ body, headers: { [policy.header]: 'quote-key-0002' } });
    expect(again.headers.get(replayedHeader)).toBe('true');
    expect(again.body.result.quote.id).toBe(first.body.result.quote.id);
    const fresh = await client.createQuote({ body, headers: { [policy.header]: 'quote-key-0003' } });
    expect(fresh.body.result.quote.id).not.toBe(first.body.result.quote.id);
  });

  it('v1: the same X-Idempotency-Key with a different body → IDEMPOTENCY_CONFLICT', async () => {
    const v1 = v1Client(mock, { key: mock.site.apiKey, secret: mock.site.apiSecret });
    const v1Route = depositV1Routes.find((r) => r.operationId === 'createDeposit')!;
    const header = v1Route.idempotency!.header;
    const send = async (body: unknown) => {
      try {
        return (await v1.createDeposit({ body: body as never, headers: { [header]: 'deposit-key-0001' } })).status;
      } catch (error) {
        if (error instanceof ApiError) return error.code;
        throw error;
      }
    };
    expect(await send({ asset: 'not valid' })).toBe('VALIDATION_ERROR');
    expect(await send({ order_id: 'ORD-1', asset: 'BTC' })).toBe('IDEMPOTENCY_CONFLICT');
  });
});
