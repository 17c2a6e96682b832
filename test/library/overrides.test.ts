// Per-test overrides with the package entry's types, as an integrator writes them: `mock.use` answers
// one v3 or v1 operation with the test's handler (typed from the operation), in the family's
// envelope, after the same platform pipeline as the simulation (authentication, request
// validation, idempotency, usage); returning undefined lets the simulation answer;
// `mock.resetOverrides` restores it. Over real HTTP, in strict mode, so every overridden answer
// is also checked against the contract.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMockServer, type ExchangeV3, type RunningMockServer } from 'exchange-api-kit';
import { failure } from '../mock-server/support/failure.js';
import { mintKey } from '../mock-server/support/keys.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';

let mock: TestServer;
beforeAll(async () => {
  mock = await startTestServer({ seed: 606 });
  await mock.control.freezeClock();
});
afterAll(() => mock.close());
afterEach(() => mock.resetOverrides());

// Quote ids are uuids: strict mode checks every overridden answer against the contract too.
const testQuoteId = '0e5a2c4f-1b7d-4e3a-9c6f-8d2b1a0e4f71';
const firstAnswerId = '7c1d9e2a-5f3b-4a8c-b6e0-2d4f8a1c3e95';

/** A quote of an enabled route, from the simulation. */
async function someQuote(): Promise<ExchangeV3.Quote> {
  const { routes } = (await mock.v3.listRoutes()).body.result;
  const route = routes.find((r) => r.is_enabled);
  if (route === undefined) throw new Error('the catalog has no enabled route');
  return (await mock.v3.createQuote({ body: { route_id: route.id, amount: route.limits.min_give } })).body.result.quote;
}

describe('mock.use on a v3 operation', () => {
  it('answers with the handler, in the envelope, and leaves other operations to the simulation', async () => {
    const real = await someQuote();
    const seen: ExchangeV3.CreateQuoteRequest[] = [];
    mock.use('createQuote', (request, context) => {
      seen.push(request.body);
      expect(context.keyId).toBe(mock.sandbox.defaultKey.id);
      return { status: 200, body: { quote: { ...real, id: testQuoteId, rate: '1.5' } } };
    });

    const response = await mock.v3.createQuote({ body: { route_id: real.route_id, amount: '100' } });
    expect(response.body).toMatchObject({ state: 0, message: 'OK', result: { quote: { id: testQuoteId, rate: '1.5' } } });
    expect(response.body.meta.request_id).toBe(response.requestId);
    expect(seen).toEqual([{ route_id: real.route_id, amount: '100' }]);
    expect((await mock.v3.listRoutes()).status).toBe(200);
  });

  it('answers an error code of a declared status in the error envelope, with the catalog condition by default', async () => {
    mock.use('createQuote', () => ({ status: 422, error: { code: 'quote_expired' } }));
    const error = await failure(mock.v3.createQuote({ body: { route_id: 1, amount: '10' } }));
    expect([error.status, error.code]).toEqual([422, 'quote_expired']);
    expect(error.body).toMatchObject({ state: 1, result: null, meta: { request_id: error.requestId } });
    expect((error.body as { message: string }).message.length).toBeGreaterThan(0);
  });

  it('runs after the platform: an unauthenticated or invalid call never reaches it', async () => {
    const handler = vi.fn(() => ({ status: 422 as const, error: { code: 'validation_error' as const } }));
    mock.use('createQuote', handler);
    expect((await failure(mock.v3Public.createQuote({ body: { route_id: 1, amount: '10' } }))).status).toBe(401);
    const invalid = await failure(mock.v3.createQuote({ body: { route_id: 1, amount: 'ten' } as never }));
    expect(Object.keys(invalid.details)).toContain('amount');
    expect(handler).not.toHaveBeenCalled();
  });

  it('is counted in the usage and stored for idempotency like any answer', async () => {
    const key = await mintKey(mock);
    const { ExchangeV3Client } = await import('exchange-api-kit');
    const client = new ExchangeV3Client({ baseUrl: mock.url, token: key.token, retry: false });
    const real = await someQuote();
    mock.use('createQuote', () => ({ status: 200, body: { quote: { ...real, id: firstAnswerId } } }));
    const input = { headers: { 'Idempotency-Key': 'override-idem-0001' }, body: { route_id: real.route_id, amount: real.amount_in } };
    expect((await client.createQuote(input)).body.result.quote.id).toBe(firstAnswerId);

    mock.resetOverrides();
    // The replay is the stored answer, not a new simulated quote.
    expect((await client.createQuote(input)).body.result.quote.id).toBe(firstAnswerId);
    const usage = (await client.getUsage()).body.result;
    expect(JSON.stringify(usage)).toContain('createQuote');
  });

  it('lets the simulation answer when it returns undefined', async () => {
    mock.use('createQuote', (request) => (request.body.amount === '999999' ? { status: 422, error: { code: 'webhook_endpoint_limit_reached' } } : undefined));
    const real = await someQuote();
    expect((await mock.v3.createQuote({ body: { route_id: real.route_id, amount: real.amount_in } })).status).toBe(200);
    expect((await failure(mock.v3.createQuote({ body: { route_id: real.route_id, amount: '999999' } }))).code).toBe('webhook_endpoint_limit_reached');
  });

  it('is replaced by a later use of the same operation and gone after resetOverrides', async () => {
    mock.use('privatePing', () => ({ status: 403, error: { code: 'client_inactive' } }));
    mock.use('privatePing', () => ({ status: 403, error: { code: 'scope_denied' } }));
    expect((await failure(mock.v3.privatePing())).code).toBe('scope_denied');
    mock.resetOverrides();
    expect((await mock.v3.privatePing()).status).toBe(200);
  });

  it('sends a non-JSON answer as the contract types it', async () => {
    mock.use('getRatesXml', () => ({ status: 200, body: '<rates><item><from>BTC</from></item></rates>' }));
    const response = await fetch(`${mock.url}/api/v3/public/rates.xml`);
    expect(response.headers.get('content-type')).toMatch(/xml/);
    expect(await response.text()).toBe('<rates><item><from>BTC</from></item></rates>');
  });
});

describe('mock.use on a v1 operation', () => {
  it('answers in the v1 body, with the meta a list needs, and knows the signing site', async () => {
    const real = (await mock.v1.createDeposit({ body: { order_id: 'OVR-1', asset: 'USDT_TRON', amount: '10.00' } })).body.data;
    mock.use('getDeposit', (request, context) => {
      expect(context.siteId).toBe(mock.sandbox.defaultSite.id);
      return request.path.uuid === real.uuid ? { status: 200, body: { ...real, status: 'paid', isFinal: true, receivedAmount: '10.00', paidAt: context.now.toISOString() } } : undefined;
    });
    mock.use('listDeposits', () => ({ status: 200, body: [], meta: { page: 1, perPage: 20, total: 0, lastPage: 1, nextCursor: null, hasMore: false } }));

    const paid = (await mock.v1.getDeposit({ path: { uuid: real.uuid } })).body;
    expect(paid).toEqual({ data: { ...real, status: 'paid', isFinal: true, receivedAmount: '10.00', paidAt: mock.sandbox.clock.now().toISOString() } });
    expect((await mock.v1.listDeposits({ query: {} })).body).toEqual({ data: [], meta: { page: 1, perPage: 20, total: 0, lastPage: 1, nextCursor: null, hasMore: false } });
  });

  it('answers a v1 error in the v1 format', async () => {
    mock.use('createDeposit', () => ({ status: 409, error: { code: 'IDEMPOTENCY_CONFLICT', message: 'Taken by the test.' } }));
    const error = await failure(mock.v1.createDeposit({ body: { order_id: 'OVR-2', asset: 'USDT_TRON' } }));
    expect(error.body).toEqual({ error: { code: 'IDEMPOTENCY_CONFLICT', message: 'Taken by the test.' }, requestId: error.requestId });
  });
});

describe('mistakes', () => {
  let plain: RunningMockServer;
  beforeAll(async () => {
    plain = await startMockServer({ port: 0 });
  });
  afterAll(() => plain.close());

  it('refuses an operation the contracts do not have, and a handler that is not a function', () => {
    expect(() => plain.use('noSuchOperation' as never, (() => undefined) as never)).toThrow(/not an operation/);
    expect(() => plain.use('resetSandbox' as never, (() => undefined) as never)).toThrow(/not an operation/);
    expect(() => plain.use('ping', 'pong' as never)).toThrow(/must be a function/);
  });

  it('fails loudly (500) on an answer the contract does not allow, which only an untyped caller can give', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      plain.use('ping', () => ({ status: 418 }) as never);
      expect((await fetch(`${plain.url}/api/v3/ping`)).status).toBe(500);
      plain.use('ping', () => ({ status: 422, error: { code: 'invalid_token' } }) as never);
      expect((await fetch(`${plain.url}/api/v3/ping`)).status).toBe(500);
      expect(logged.mock.calls.map((call) => String(call[1]))).toEqual([
        expect.stringContaining('answered 418'),
        expect.stringContaining('invalid_token, which is not a code of that status'),
      ]);
    } finally {
      logged.mockRestore();
    }
  });
});
