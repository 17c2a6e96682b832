// The GENERATED clients (generated/<contract>/client.ts) against a real HTTP server on an
// ephemeral port. The server checks what the clients send: the URL as received, Bearer auth, the
// idempotency and correlation headers, HMAC signatures recomputed from the raw request with the
// contract's own `x-signature-scheme`, and the request parts against the generated validators.
// The bodies it serves are checked against the generated response validators too, so both sides
// of every exchange follow the contract. Retry waits go through an injected sleep (never timed).
import { createHash, createHmac } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { useRecordingServer, type Handler, type Reply, type Seen } from '../support/recording-server.js';
import { DepositV1Client, depositV1Operations, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import type { Deposit } from '../../generated/deposit-v1/types.js';
import { operationValidators as depositValidators } from '../../generated/deposit-v1/validators.js';
import {
  ApiError,
  createHmacSigner,
  ExchangeV3Client,
  exchangeV3Operations,
  exchangeV3SignatureScheme,
} from '../../generated/exchange-v3/client.js';
import type { Order, OrderStatus } from '../../generated/exchange-v3/types.js';
import { operationValidators as exchangeValidators, type Validator } from '../../generated/exchange-v3/validators.js';
import type { SignatureScheme } from '../../generated/runtime/client-runtime.js';


const server = useRecordingServer();

// --- contract-shaped fixtures -------------------------------------------------------------

const timestamp = '2026-11-21T12:00:00Z';
/** createOrder cites a quote by its uuid. */
const quoteId = '4f1d2c3b-5a6e-4f70-8a9b-0c1d2e3f4a5b';

function order(id: number, status: OrderStatus = 'awaiting_payment'): Order {
  return {
    id,
    public_id: `ORD${String(id).padStart(7, '0')}`,
    tracking_id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    status,
    route_id: 7,
    quote_id: null,
    client_order_id: null,
    email: 'client@example.com',
    amount_in: '100.00',
    amount_out: '0.00150000',
    currency_in: 'USDTTRC20',
    currency_out: 'BTC',
    rate: '0.0000150000',
    fee: '0.00001000',
    from_requisite: null,
    to_requisite: 'bc1q…wlh',
    requisites: { to_address: 'bc1q…wlh' },
    payment_details: {
      network: 'TRON',
      address: 'TXq9SxjM5g1rM1E2fYKcFzN7sDdA9kW1bT',
      memo: null,
      account: null,
      amount: '100.00',
      currency: 'USDTTRC20',
      expires_at: '2026-11-21T13:00:00Z',
      amount_received: '0',
      transactions: [],
    },
    verification: { required: false, status: null },
    correlation_id: null,
    expires_at: '2026-11-21T13:00:00Z',
    created_at: timestamp,
    updated_at: timestamp,
    completed_at: null,
  };
}

function envelope(result: unknown, meta: Record<string, unknown> = {}) {
  return { state: 0, message: 'OK', result, meta: { request_id: 'req_ok', correlation_id: null, timestamp, ...meta } };
}

function errorEnvelope(code: string, message: string, requestId: string) {
  return { state: 1, message, result: null, error: { code }, meta: { request_id: requestId, correlation_id: null, timestamp } };
}

function deposit(index: number): Deposit {
  return {
    uuid: `9b2f6c1e-0000-4000-8000-${String(index).padStart(12, '0')}`,
    orderId: `order-${index}`,
    asset: 'USDT_TRON',
    network: 'TRON',
    address: 'TXq9SxjM5g1rM1E2fYKcFzN7sDdA9kW1bT',
    memo: null,
    amount: '25.00',
    receivedAmount: '0',
    status: 'waiting',
    isFinal: false,
    amlStatus: 'not_checked',
    transaction: null,
    staticAddress: null,
    expiresAt: '2026-11-21T13:00:00Z',
    createdAt: timestamp,
    updatedAt: timestamp,
    paidAt: null,
  };
}

/** Asserts that `data` passes `validate` (the generated ajv function), showing ajv's errors if not. */
function expectValid(validate: Validator | undefined, data: unknown): void {
  if (validate === undefined) throw new Error('the operation has no validator for this part');
  const valid = validate(data);
  expect(valid ? [] : validate.errors).toEqual([]);
}

// --- what the server reads from a raw request -------------------------------------------

function header(seen: Seen, name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const value = seen.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The query as the generated router parses it: comma lists (per the generated spec) split, `numeric` names as numbers. */
function parsedQuery(seen: Seen, specs: readonly { name: string; commaSeparated: boolean }[], numeric: readonly string[]) {
  const search = new URL(seen.url, 'http://server').searchParams;
  const query: Record<string, unknown> = {};
  for (const { name, commaSeparated } of specs) {
    const value = search.get(name);
    if (value === null) continue;
    const convert = (item: string) => (numeric.includes(name) ? Number(item) : item);
    query[name] = commaSeparated ? value.split(',').filter((item) => item !== '').map(convert) : convert(value);
  }
  return query;
}

/** The declared headers of an operation as the generated router hands them to validation: lower-cased names. */
function declaredHeaders(seen: Seen, names: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = header(seen, name);
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  return headers;
}

/**
 * Verifies a request signature the way a server following `scheme` would: every value is read
 * from the request as received (headers, the path with its raw query, the raw body bytes).
 * Returns the error code of the rejection, or undefined when the signature is good.
 */
function signatureProblem(
  scheme: SignatureScheme,
  seen: Seen,
  credentials: { secret: string; key?: string },
  usedNonces: Set<string>,
): string | undefined {
  if (scheme.algorithm !== 'hmac-sha256') throw new Error(`unsupported algorithm ${scheme.algorithm}`);
  const signedAt = header(seen, scheme.headers.timestamp);
  const signature = header(seen, scheme.headers.signature);
  if (signedAt === undefined || signature === undefined) return 'signature_required';
  if (scheme.headers.key !== undefined && header(seen, scheme.headers.key) !== credentials.key) return 'invalid_api_key';
  if (!/^\d+$/.test(signedAt) || Math.abs(Date.now() / 1000 - Number(signedAt)) > scheme.window_seconds) {
    return 'timestamp_out_of_window';
  }
  const nonce = header(seen, scheme.headers.nonce);
  if (scheme.canonical.includes('nonce')) {
    if (nonce === undefined) return 'signature_required';
    const rule = scheme.nonce;
    if (rule !== undefined && (nonce.length < rule.min_length || nonce.length > rule.max_length || !new RegExp(rule.pattern).test(nonce))) {
      return 'invalid_nonce';
    }
    if (usedNonces.has(nonce)) return 'signature_replay';
    usedNonces.add(nonce);
  }
  const parts = scheme.canonical.map((part) => {
    switch (part) {
      case 'timestamp':
        return signedAt;
      case 'nonce':
        return nonce ?? '';
      case 'method':
        return seen.method;
      case 'path':
        return seen.url;
      case 'body_sha256':
        return createHash('sha256').update(seen.raw).digest('hex');
    }
  });
  const expected = createHmac('sha256', credentials.secret).update(parts.join(scheme.separator)).digest(scheme.encoding);
  return expected === signature ? undefined : 'invalid_signature';
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

// --- ExchangeV3Client ------------------------------------------------------------------------

describe('ExchangeV3Client', () => {
  const token = 'tok_plain_0123456789';

  function v3(options: Partial<ConstructorParameters<typeof ExchangeV3Client>[0]> = {}) {
    return new ExchangeV3Client({ baseUrl: server.baseUrl, token, ...options });
  }

  it('listOrders sends the comma list filter, the Bearer token, and returns the parsed body', async () => {
    const served = envelope(
      { orders: [order(1, 'paid'), order(2, 'completed')] },
      { pagination: { mode: 'page', current_page: 1, per_page: 2, total: 2, last_page: 1, from: 1, to: 2 } },
    );
    expectValid(exchangeValidators.listOrders.responses['200'], served);
    server.handler = () => ({ status: 200, headers: { 'x-request-id': 'req_ok' }, body: served });

    const response = await v3().listOrders({ query: { 'filter[status]': ['paid', 'completed'], per_page: 2 } });

    const [seen] = server.seen;
    expect(seen?.method).toBe('GET');
    expect(seen?.url).toBe('/api/v3/private/orders?filter%5Bstatus%5D=paid%2Ccompleted&per_page=2');
    expect(seen?.headers.authorization).toBe(`Bearer ${token}`);
    const query = parsedQuery(seen!, exchangeV3Operations.listOrders.query, ['page', 'per_page']);
    expect(query).toEqual({ 'filter[status]': ['paid', 'completed'], per_page: 2 });
    expectValid(exchangeValidators.listOrders.query, query);

    expect(response.status).toBe(200);
    expect(response.body).toEqual(served);
    expect(response.requestId).toBe('req_ok');
    expect(response.body.result.orders.map((o) => o.status)).toEqual(['paid', 'completed']);
  });

  it('keeps the contract base path when basePath is passed as undefined (an unset variable)', async () => {
    server.handler = () => ({ status: 200, body: envelope(null) });
    await v3({ basePath: undefined }).ping();
    expect(server.seen[0]?.url).toBe('/api/v3/ping');
  });

  it('listOrdersAll walks every page of a 5-order list in page mode and yields each order once', async () => {
    const all = [1, 2, 3, 4, 5].map((id) => order(id));
    server.handler = (seen) => {
      const search = new URL(seen.url, 'http://server').searchParams;
      const page = Number(search.get('page'));
      const perPage = Number(search.get('per_page'));
      const lastPage = Math.ceil(all.length / perPage);
      const orders = all.slice((page - 1) * perPage, page * perPage);
      const body = envelope(
        { orders },
        { pagination: { mode: 'page', current_page: page, per_page: perPage, total: all.length, last_page: lastPage, from: (page - 1) * perPage + 1, to: (page - 1) * perPage + orders.length } },
      );
      expectValid(exchangeValidators.listOrders.responses['200'], body);
      return { status: 200, body };
    };

    const yielded = await collect(v3().listOrdersAll({ query: { per_page: 2 } }, 'page'));

    expect(yielded.map((o) => o.id)).toEqual([1, 2, 3, 4, 5]);
    const queries = server.seen.map((seen) => parsedQuery(seen, exchangeV3Operations.listOrders.query, ['page', 'per_page']));
    expect(queries).toEqual([
      { page: 1, per_page: 2 },
      { page: 2, per_page: 2 },
      { page: 3, per_page: 2 },
    ]);
    for (const query of queries) expectValid(exchangeValidators.listOrders.query, query);
  });

  it('createOrder sends a typed body, an automatic Idempotency-Key and the given X-Correlation-Id; the validators agree', async () => {
    const created = envelope({ order: order(11) }, { correlation_id: 'corr-42' });
    expectValid(exchangeValidators.createOrder.responses['201'], created);
    server.handler = () => ({ status: 201, body: created });

    const body = { quote_id: quoteId, email: 'client@example.com', requisites: { to_address: 'bc1qexampleaddress' } };
    const response = await v3().createOrder({ body, headers: { 'X-Correlation-Id': 'corr-42' } });

    const [seen] = server.seen;
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/api/v3/private/exchange/orders');
    expect(seen?.headers['content-type']).toBe('application/json');
    const key = header(seen!, 'Idempotency-Key');
    expect(key?.length).toBeGreaterThanOrEqual(8);
    expect(key?.length).toBeLessThanOrEqual(191);
    expect(header(seen!, 'X-Correlation-Id')).toBe('corr-42');

    const received: unknown = JSON.parse(seen!.raw.toString('utf8'));
    expect(received).toEqual(body);
    expectValid(exchangeValidators.createOrder.body, received);
    expectValid(exchangeValidators.createOrder.headers, declaredHeaders(seen!, exchangeV3Operations.createOrder.headers));

    expect(response.status).toBe(201);
    expect(response.body.result.order.id).toBe(11);
  });

  it('each createOrder call gets its own Idempotency-Key', async () => {
    server.handler = () => ({ status: 201, body: envelope({ order: order(12) }) });
    const client = v3();
    const body = { route_id: 7, amount: '100.00', email: 'client@example.com', requisites: { to_address: 'bc1qexampleaddress' } };
    await client.createOrder({ body });
    await client.createOrder({ body });

    const keys = server.seen.map((seen) => header(seen, 'Idempotency-Key'));
    expect(new Set(keys).size).toBe(2);
    expectValid(exchangeValidators.createOrder.body, JSON.parse(server.seen[0]!.raw.toString('utf8')));
  });

  it('a 404 envelope becomes an ApiError with code not_found and the request id', async () => {
    const notFound = errorEnvelope('not_found', 'Order not found.', 'req_404');
    expectValid(exchangeValidators.getOrder.responses['404'], notFound);
    server.handler = () => ({ status: 404, headers: { 'x-request-id': 'req_404' }, body: notFound });

    const error = await rejection(v3().getOrder({ path: { order: 'ZZZZZZZZZZ' } }));

    expect(server.seen[0]?.url).toBe('/api/v3/private/orders/ZZZZZZZZZZ');
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(404);
    expect(apiError.code).toBe('not_found');
    expect(apiError.requestId).toBe('req_404');
    expect(apiError.details).toEqual({});
    expect(apiError.operationId).toBe('getOrder');
    expect(server.seen).toHaveLength(1); // a 404 is not retried
  });

  describe('with a key that requires HMAC signatures', () => {
    const hmacToken = 'tok_hmac_0123456789';
    const secret = 'api-hmac-secret';
    let usedNonces: Set<string>;

    beforeEach(() => {
      usedNonces = new Set();
      // The server of an HMAC key: refuses unsigned or badly signed calls, answers the rest.
      server.handler = (seen) => {
        if (header(seen, 'authorization') !== `Bearer ${hmacToken}`) {
          return { status: 401, body: errorEnvelope('invalid_token', 'Invalid token.', 'req_401') };
        }
        const problem = signatureProblem(exchangeV3SignatureScheme, seen, { secret }, usedNonces);
        if (problem !== undefined) return { status: 401, body: errorEnvelope(problem, 'Signature check failed.', 'req_sig') };
        if (seen.method === 'POST') {
          expectValid(exchangeValidators.createOrder.body, JSON.parse(seen.raw.toString('utf8')));
          return { status: 201, body: envelope({ order: order(21) }) };
        }
        return {
          status: 200,
          body: envelope({ orders: [order(1, 'paid')] }, { pagination: { mode: 'page', current_page: 1, per_page: 2, total: 1, last_page: 1, from: 1, to: 1 } }),
        };
      };
    });

    it('the scheme comes from the contract', () => {
      expect(exchangeV3SignatureScheme.headers).toEqual({ timestamp: 'X-Api-Timestamp', nonce: 'X-Api-Nonce', signature: 'X-Api-Signature' });
      expect(exchangeV3SignatureScheme.canonical).toEqual(['timestamp', 'nonce', 'method', 'path', 'body_sha256']);
    });

    it('an unsigned call is refused with signature_required', async () => {
      const error = await rejection(v3({ token: hmacToken }).createOrder({ body: { quote_id: quoteId, email: 'client@example.com', requisites: {} } }));
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('signature_required');
      expect((error as ApiError).status).toBe(401);
    });

    it('signed calls (with a body, and with a query string) are accepted by the recomputed signature', async () => {
      const client = v3({ token: hmacToken, signer: createHmacSigner(exchangeV3SignatureScheme, { secret }) });

      const created = await client.createOrder({ body: { quote_id: quoteId, email: 'client@example.com', requisites: { to_address: 'bc1qexampleaddress' } } });
      const listed = await client.listOrders({ query: { 'filter[status]': ['paid', 'completed'], per_page: 2 } });

      expect(created.status).toBe(201);
      expect(listed.status).toBe(200);
      for (const seen of server.seen) {
        expect(header(seen, 'X-Api-Timestamp')).toMatch(/^\d+$/);
        expect(header(seen, 'X-Api-Nonce')).toMatch(new RegExp(exchangeV3SignatureScheme.nonce!.pattern));
        expect(header(seen, 'X-Api-Signature')).toMatch(/^[0-9a-f]{64}$/);
      }
      expect(usedNonces.size).toBe(2);
    });

    it('a signature made with another secret is refused with invalid_signature', async () => {
      const client = v3({ token: hmacToken, signer: createHmacSigner(exchangeV3SignatureScheme, { secret: 'wrong-secret' }) });
      const error = await rejection(client.listOrders());
      expect((error as ApiError).code).toBe('invalid_signature');
    });
  });
});

// --- DepositV1Client -------------------------------------------------------------------------

describe('DepositV1Client', () => {
  const credentials = { key: 'pk_live_0123456789', secret: 'deposit-secret' };
  let usedNonces: Set<string>;

  /** A client signing as the contract says; sleeps are recorded and instant, jitter fixed. */
  function v1() {
    const sleeps: number[] = [];
    const client = new DepositV1Client({
      baseUrl: server.baseUrl,
      signer: createHmacSigner(depositV1SignatureScheme, credentials),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
    });
    return { client, sleeps };
  }

  /** Rejects what a v1 server would reject for its signature, before `answer` runs. */
  function signed(answer: Handler): Handler {
    return (seen) => {
      const problem = signatureProblem(depositV1SignatureScheme, seen, credentials, usedNonces);
      if (problem !== undefined) {
        return { status: 401, body: { error: { code: 'INVALID_SIGNATURE', message: problem }, requestId: 'req_v1_401' } };
      }
      return answer(seen);
    };
  }

  beforeEach(() => {
    usedNonces = new Set();
  });

  it('createDeposit is signed with the API key, gets an automatic X-Idempotency-Key, and the validators agree', async () => {
    const answer = { data: deposit(1) };
    expectValid(depositValidators.createDeposit.responses['201'], answer);
    server.handler = signed(() => ({ status: 201, headers: { 'x-request-id': 'req_v1_201' }, body: answer }));
    const { client } = v1();

    const body = { order_id: 'order-1', asset: 'USDT_TRON', amount: '25.00' };
    const response = await client.createDeposit({ body });

    const [seen] = server.seen;
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/v1/public/deposits');
    expect(header(seen!, 'X-Api-Key')).toBe(credentials.key);
    expect(header(seen!, 'X-Api-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(header(seen!, 'authorization')).toBeUndefined();
    const key = header(seen!, 'X-Idempotency-Key');
    expect(key).toBeDefined();
    expect(header(seen!, 'Idempotency-Key')).toBeUndefined();

    const received: unknown = JSON.parse(seen!.raw.toString('utf8'));
    expect(received).toEqual(body);
    expectValid(depositValidators.createDeposit.body, received);
    expectValid(depositValidators.createDeposit.headers, declaredHeaders(seen!, depositV1Operations.createDeposit.headers));

    expect(response.status).toBe(201);
    expect(response.body).toEqual(answer);
    expect(response.requestId).toBe('req_v1_201');
  });

  it('listDepositsAll in cursor mode starts with an empty cursor, follows meta.nextCursor and yields every deposit once', async () => {
    const all = [1, 2, 3, 4, 5].map(deposit);
    const cursorOf = (index: number) => Buffer.from(`after:${index}`).toString('base64url');
    server.handler = signed((seen) => {
      const search = new URL(seen.url, 'http://server').searchParams;
      const cursor = search.get('cursor');
      const perPage = Number(search.get('perPage'));
      const start = cursor === '' || cursor === null ? 0 : Number(Buffer.from(cursor, 'base64url').toString().slice('after:'.length));
      const data = all.slice(start, start + perPage);
      const end = start + data.length;
      const hasMore = end < all.length;
      const body = { data, meta: { page: null, perPage, total: null, lastPage: null, nextCursor: hasMore ? cursorOf(end) : null, hasMore } };
      expectValid(depositValidators.listDeposits.responses['200'], body);
      return { status: 200, body };
    });
    const { client } = v1();

    const yielded = await collect(client.listDepositsAll({ query: { perPage: 2 } }, 'cursor'));

    expect(yielded.map((d) => d.orderId)).toEqual(['order-1', 'order-2', 'order-3', 'order-4', 'order-5']);
    const cursors = server.seen.map((seen) => new URL(seen.url, 'http://server').searchParams.getAll('cursor'));
    expect(cursors).toEqual([[''], [cursorOf(2)], [cursorOf(4)]]);
    expect(server.seen[0]?.url).toMatch(/[?&]cursor=(&|$)/);
    for (const seen of server.seen) {
      expect(new URL(seen.url, 'http://server').searchParams.has('page')).toBe(false);
      expectValid(depositValidators.listDeposits.query, parsedQuery(seen, depositV1Operations.listDeposits.query, ['page', 'perPage']));
    }
  });

  it('refreshDeposit is retried after a 429 RATE_LIMITED with Retry-After: 1, then succeeds', async () => {
    const limited = { error: { code: 'RATE_LIMITED', message: 'One refresh per 30 seconds.' }, requestId: 'req_v1_429' };
    const refreshed = { data: { ...deposit(3), status: 'confirming' as const } };
    expectValid(depositValidators.refreshDeposit.responses['429'], limited);
    expectValid(depositValidators.refreshDeposit.responses['200'], refreshed);
    let calls = 0;
    server.handler = signed(() => (++calls === 1 ? { status: 429, headers: { 'retry-after': '1' }, body: limited } : { status: 200, body: refreshed }));
    const { client, sleeps } = v1();

    const uuid = deposit(3).uuid;
    const response = await client.refreshDeposit({ path: { uuid } });

    expect(sleeps).toEqual([1000]);
    expect(server.seen.map((seen) => `${seen.method} ${seen.url}`)).toEqual([
      `POST /v1/public/deposits/${uuid}/refresh`,
      `POST /v1/public/deposits/${uuid}/refresh`,
    ]);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(refreshed);
  });

  it('a v1 error body becomes an ApiError with its code, details and requestId', async () => {
    const invalid = { error: { code: 'VALIDATION_ERROR', message: 'Invalid input.', details: { asset: ['is unknown'] } }, requestId: 'req_v1_422' };
    expectValid(depositValidators.createDeposit.responses['422'], invalid);
    server.handler = signed(() => ({ status: 422, body: invalid }));
    const { client } = v1();

    const error = await rejection(client.createDeposit({ body: { order_id: 'order-9', asset: 'NOPE' } }));

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', details: { asset: ['is unknown'] }, requestId: 'req_v1_422' });
  });
});
