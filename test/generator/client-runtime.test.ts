// The hand-written client runtime against a real HTTP server on an ephemeral port: URLs, auth,
// bodies, errors, retries (delays recorded by an injected sleep, never timed), idempotency and
// correlation headers, HMAC signing as the contracts describe it, pagination and webhook checks.
import { createHash, createHmac } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useRecordingServer, type Handler, type Reply, type Seen } from '../support/recording-server.js';
import {
  ApiError,
  ClientRuntime,
  createHmacSigner,
  verifyWebhookSignature,
  type ClientOptions,
  type OperationSpec,
  type SignatureScheme,
} from '../../generator/runtime/client-runtime.js';
import { ApiError as GeneratedApiError } from '../../generated/runtime/client-errors.js';
import { isObject, readYaml, repoRoot } from '../support/contracts.js';


/** Replies in order, repeating the last one. */
function sequence(...replies: Reply[]): Handler {
  let next = 0;
  return () => replies[Math.min(next++, replies.length - 1)]!;
}

function envelope(result: unknown, meta: Record<string, unknown> = {}): unknown {
  return { state: 0, message: 'OK', result, meta: { request_id: 'req_ok', correlation_id: null, timestamp: '2026-11-21T12:00:00Z', ...meta } };
}

/** A runtime whose sleeps are recorded and instant, with jitter fixed at one half. */
function runtime(baseUrl: string, options: Partial<ClientOptions> = {}) {
  const sleeps: number[] = [];
  const client = new ClientRuntime({
    baseUrl,
    basePath: '/api/v3',
    errorFormat: 'v3-envelope',
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  return { client, sleeps };
}

function spec(overrides: Partial<OperationSpec> = {}): OperationSpec {
  return { operationId: 'testOperation', method: 'GET', path: '/things', query: [], headers: [], ...overrides };
}

const createOrder = spec({
  operationId: 'createOrder',
  method: 'POST',
  path: '/private/orders',
  headers: ['Idempotency-Key', 'X-Correlation-Id'],
  idempotencyHeader: 'Idempotency-Key',
  body: { contentType: 'application/json' },
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('URL, auth and body', () => {
  const server = useRecordingServer(() => ({ status: 200, body: {} }));

  it('fills the path, encodes the query (filter[...], comma lists, repeats) and drops empty values', async () => {
    server.handler = () => ({ status: 200, body: envelope({ ok: true }) });
    const { client } = runtime(`${server.baseUrl}/`);
    const response = await client.request(
      spec({
        path: '/private/orders/{order}/items/{item}',
        query: [
          { name: 'filter[status]', commaSeparated: true },
          { name: 'tag', commaSeparated: false },
        ],
      }),
      {
        path: { order: 'a b/c?', item: 7 },
        query: { 'filter[status]': ['new', 'paid'], tag: ['x', 'y'], page: 2, active: true, gone: undefined, none: null },
      },
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual(envelope({ ok: true }));
    expect(response.requestId).toBe('req_ok');

    const seen = new URL(server.seen[0]!.url, server.baseUrl);
    expect(server.seen[0]!.url.startsWith('/api/v3/private/orders/a%20b%2Fc%3F/items/7?')).toBe(true);
    expect(seen.searchParams.get('filter[status]')).toBe('new,paid');
    expect(seen.searchParams.getAll('tag')).toEqual(['x', 'y']);
    expect(seen.searchParams.get('page')).toBe('2');
    expect(seen.searchParams.get('active')).toBe('true');
    expect(seen.searchParams.has('gone')).toBe(false);
    expect(seen.searchParams.has('none')).toBe(false);
  });

  it('rejects a missing path parameter and one that would be a dot segment', async () => {
    const { client } = runtime(server.baseUrl);
    const withOrder = spec({ path: '/private/orders/{order}' });
    await expect(client.request(withOrder)).rejects.toThrow(/missing path parameter order/);
    await expect(client.request(withOrder, { path: { order: '..' } })).rejects.toThrow(TypeError);
    expect(server.seen).toHaveLength(0);
  });

  it('sends the Bearer token, default headers and a JSON body', async () => {
    server.handler = () => ({ status: 201, body: envelope({ id: 1 }) });
    const { client } = runtime(server.baseUrl, { token: 'tok_123', headers: { 'user-agent': 'kit-test' } });
    await client.request(createOrder, { body: { amount: '100.00', note: 'é' } });
    const seen = server.seen[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.headers.authorization).toBe('Bearer tok_123');
    expect(seen.headers['user-agent']).toBe('kit-test');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen.body)).toEqual({ amount: '100.00', note: 'é' });
  });

  it('takes the request id from X-Request-Id when the body has none', async () => {
    server.handler = () => ({ status: 204, headers: { 'x-request-id': 'req_hdr' } });
    const { client } = runtime(server.baseUrl);
    const response = await client.request(spec({ method: 'DELETE' }));
    expect(response).toMatchObject({ status: 204, body: undefined, requestId: 'req_hdr' });
  });
});

describe('errors', () => {
  const server = useRecordingServer(() => ({ status: 200, body: {} }));

  it('reads a v3 error envelope', async () => {
    server.handler = () => ({
      status: 422,
      body: {
        state: 1,
        message: 'The given data was invalid.',
        result: null,
        error: { code: 'validation_error', details: { per_page: ['must be <= 100'] } },
        meta: { request_id: 'req_v3', correlation_id: null, timestamp: '2026-11-21T12:00:00Z' },
      },
    });
    const { client } = runtime(server.baseUrl);
    const error = await rejection(client.request(spec({ operationId: 'listOrders' })));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_error',
      details: { per_page: ['must be <= 100'] },
      requestId: 'req_v3',
      operationId: 'listOrders',
    });
    expect((error as ApiError).message).toBe('listOrders failed with HTTP 422 validation_error: The given data was invalid. (per_page: must be <= 100)');
  });

  it('names the first invalid field and how many others there are', async () => {
    server.handler = () => ({
      status: 422,
      body: {
        state: 1,
        message: 'The given data was invalid.',
        result: null,
        error: { code: 'validation_error', details: { 'body.amount': ['must be positive', 'must be a decimal'], 'body.to': ['is required'], 'body.from': ['is required'] } },
        meta: { request_id: 'req_v3', correlation_id: null, timestamp: '2026-11-21T12:00:00Z' },
      },
    });
    const { client } = runtime(server.baseUrl);
    const error = await rejection(client.request(createOrder, { body: {} }));
    expect((error as ApiError).message).toBe(
      'createOrder failed with HTTP 422 validation_error: The given data was invalid. (body.amount: must be positive, must be a decimal; 2 more fields)',
    );
  });

  it('reads a v1 error body', async () => {
    server.handler = () => ({
      status: 400,
      headers: { 'x-request-id': 'req_v1' },
      body: { error: { code: 'VALIDATION_ERROR', message: 'Invalid input.', details: { amount: ['is required'] } }, requestId: 'req_v1' },
    });
    const { client } = runtime(server.baseUrl, { basePath: '', errorFormat: 'v1' });
    const error = await rejection(client.request(spec({ operationId: 'createDeposit', method: 'POST' }), { body: {} }));
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { amount: ['is required'] }, requestId: 'req_v1' });
    expect((error as ApiError).message).toBe('createDeposit failed with HTTP 400 VALIDATION_ERROR: Invalid input. (amount: is required)');
  });

  it('falls back to http_<status> and the X-Request-Id header for a proxy HTML page', async () => {
    server.handler = () => ({ status: 502, headers: { 'x-request-id': 'req_proxy' }, body: '<html><body>Bad Gateway</body></html>' });
    const { client } = runtime(server.baseUrl, { retry: false });
    const error = await rejection(client.request(spec()));
    expect(error).toMatchObject({ status: 502, code: 'http_502', details: {}, requestId: 'req_proxy', body: '<html><body>Bad Gateway</body></html>' });
    expect(server.seen).toHaveLength(1);
  });
});

describe('ApiError across copies of the runtime', () => {
  const server = useRecordingServer(() => ({ status: 404, body: { error: { code: 'not_found' } } }));

  it('is an ApiError to the class of another copy (a project\'s generated runtime catching the kit\'s client)', async () => {
    const { client } = runtime(server.baseUrl, { retry: false });
    const error = await rejection(client.request(spec()));
    // The copy `generate` writes: another module, so another class.
    expect(GeneratedApiError).not.toBe(ApiError);
    expect(error).toBeInstanceOf(GeneratedApiError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
  });

  it('is not claimed for other errors, and a subclass keeps its own check', () => {
    expect(new Error('x')).not.toBeInstanceOf(ApiError);
    expect({ name: 'ApiError', status: 404, code: 'not_found' }).not.toBeInstanceOf(ApiError);
    class OrderMissing extends ApiError {}
    const plain = new ApiError({ operationId: 'getOrder', status: 404, code: 'not_found', details: {}, requestId: undefined, body: undefined, message: undefined });
    expect(plain).not.toBeInstanceOf(OrderMissing);
    expect(new OrderMissing({ operationId: 'getOrder', status: 404, code: 'not_found', details: {}, requestId: undefined, body: undefined, message: undefined })).toBeInstanceOf(GeneratedApiError);
  });
});

describe('retries', () => {
  const server = useRecordingServer(() => ({ status: 200, body: {} }));
  const ok: Reply = { status: 200, body: envelope({ ok: true }) };
  const unavailable: Reply = { status: 503, body: { state: 1, message: 'Down', result: null, error: { code: 'service_unavailable' }, meta: { request_id: 'r', timestamp: 't' } } };

  it('waits Retry-After seconds after a 429, then succeeds', async () => {
    server.handler = sequence({ status: 429, headers: { 'retry-after': '2' } }, ok);
    const { client, sleeps } = runtime(server.baseUrl);
    expect((await client.request(spec())).status).toBe(200);
    expect(sleeps).toEqual([2000]);
    expect(server.seen).toHaveLength(2);
  });

  it('reads a Retry-After HTTP-date, capped by maxDelayMs', async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toUTCString();
    server.handler = sequence({ status: 429, headers: { 'retry-after': inAnHour } }, ok);
    const { client, sleeps } = runtime(server.baseUrl);
    await client.request(spec());
    expect(sleeps).toEqual([30_000]);
  });

  it('waits nothing for a Retry-After date in the past', async () => {
    server.handler = sequence({ status: 429, headers: { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' } }, ok);
    const { client, sleeps } = runtime(server.baseUrl);
    await client.request(spec());
    expect(sleeps).toEqual([0]);
  });

  it('repeats a refused (429) POST even without an idempotency key', async () => {
    server.handler = sequence({ status: 429, headers: { 'retry-after': '1' } }, ok);
    const { client, sleeps } = runtime(server.baseUrl);
    await client.request(spec({ method: 'POST' }), { body: { a: 1 } });
    expect(sleeps).toEqual([1000]);
    expect(server.seen).toHaveLength(2);
  });

  it('retries a GET after 5xx with exponential backoff and full jitter', async () => {
    server.handler = sequence(unavailable, unavailable, ok);
    const { client, sleeps } = runtime(server.baseUrl);
    expect((await client.request(spec())).status).toBe(200);
    expect(sleeps).toEqual([100, 200]); // 0.5 × 200 · 2^0, 0.5 × 200 · 2^1
  });

  it('retries a POST that carries an idempotency key, with the same key each time', async () => {
    server.handler = sequence(unavailable, unavailable, ok);
    const { client, sleeps } = runtime(server.baseUrl);
    await client.request(createOrder, { body: { amount: '1' } });
    expect(sleeps).toHaveLength(2);
    const keys = server.seen.map((seen) => seen.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
  });

  it('does not retry a POST without an idempotency key after a 5xx', async () => {
    server.handler = sequence(unavailable, ok);
    const { client, sleeps } = runtime(server.baseUrl, { idempotency: 'manual' });
    const error = await rejection(client.request(createOrder, { body: { amount: '1' } }));
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(sleeps).toEqual([]);
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('bounds the attempts, with the delay capped by maxDelayMs', async () => {
    server.handler = () => unavailable;
    const { client, sleeps } = runtime(server.baseUrl, { retry: { maxAttempts: 4, maxDelayMs: 300 } });
    const error = await rejection(client.request(spec()));
    expect(error).toMatchObject({ status: 503 });
    expect(server.seen).toHaveLength(4);
    expect(sleeps).toEqual([100, 150, 150]);
  });

  it('does not retry at all with retry: false', async () => {
    server.handler = sequence({ status: 429, headers: { 'retry-after': '1' } }, ok);
    const { client, sleeps } = runtime(server.baseUrl, { retry: false });
    expect(await rejection(client.request(spec()))).toMatchObject({ status: 429, code: 'http_429' });
    expect(sleeps).toEqual([]);
  });

  it('rethrows a network error as is after the attempts, and only retries replayable calls', async () => {
    const failure = new TypeError('fetch failed');
    let calls = 0;
    const failingFetch: typeof fetch = async () => {
      calls++;
      throw failure;
    };
    const { client, sleeps } = runtime(server.baseUrl, { fetch: failingFetch, idempotency: 'manual' });
    expect(await rejection(client.request(spec()))).toBe(failure);
    expect(calls).toBe(3);
    expect(sleeps).toEqual([100, 200]);

    calls = 0;
    expect(await rejection(client.request(createOrder, { body: {} }))).toBe(failure);
    expect(calls).toBe(1);
  });
});

describe('a signal during the wait between attempts', () => {
  const server = useRecordingServer(() => ({ status: 429, headers: { 'retry-after': '120' } }));

  // Without the abort ending it, each call below would wait two minutes, far past the test's timeout.
  it('ends the timer waiting for Retry-After at once, rejecting with the signal reason', async () => {
    const { client } = runtime(server.baseUrl, { sleep: undefined, retry: { maxDelayMs: 600_000 } });
    const signal = AbortSignal.timeout(300);
    expect(await rejection(client.request(spec(), { signal }))).toBe(signal.reason);
    expect(signal.reason).toMatchObject({ name: 'TimeoutError' });
    expect(server.seen).toHaveLength(1);
  });

  it('ends an injected sleep that ignores the signal', async () => {
    const controller = new AbortController();
    const reason = new Error('the caller gave up');
    const { client } = runtime(server.baseUrl, {
      sleep: () => {
        controller.abort(reason);
        return new Promise<void>(() => {}); // never ends by itself
      },
    });
    expect(await rejection(client.request(spec(), { signal: controller.signal }))).toBe(reason);
    expect(server.seen).toHaveLength(1);
  });
});

describe('idempotency and correlation headers', () => {
  const server = useRecordingServer(() => ({ status: 200, body: {} }));

  it('adds a random key only to operations that declare an idempotency header', async () => {
    server.handler = () => ({ status: 200, body: envelope(null) });
    const { client } = runtime(server.baseUrl);
    await client.request(createOrder, { body: {} });
    await client.request(createOrder, { body: {} });
    await client.request(spec({ method: 'POST', path: '/private/other' }), { body: {} });
    await client.request(
      spec({ method: 'POST', headers: ['X-Idempotency-Key'], idempotencyHeader: 'X-Idempotency-Key' }),
      { body: {} },
    );
    const [first, second, undeclared, v1] = server.seen;
    expect(first!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.headers['idempotency-key']).not.toBe(first!.headers['idempotency-key']);
    expect(undeclared!.headers['idempotency-key']).toBeUndefined();
    expect(v1!.headers['x-idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the caller key, and adds none in manual mode', async () => {
    server.handler = () => ({ status: 200, body: envelope(null) });
    await runtime(server.baseUrl).client.request(createOrder, { body: {}, headers: { 'Idempotency-Key': 'mine-123' } });
    await runtime(server.baseUrl, { idempotency: 'manual' }).client.request(createOrder, { body: {} });
    expect(server.seen.map((seen) => seen.headers['idempotency-key'])).toEqual(['mine-123', undefined]);
  });

  it('sends X-Correlation-Id on operations that declare it, unless the caller gave one', async () => {
    server.handler = () => ({ status: 200, body: envelope(null) });
    let counter = 0;
    const { client } = runtime(server.baseUrl, { correlationId: () => `corr-${++counter}` });
    await client.request(createOrder, { body: {} });
    await client.request(createOrder, { body: {}, headers: { 'X-Correlation-Id': 'caller' } });
    await client.request(spec());
    await runtime(server.baseUrl, { correlationId: 'fixed' }).client.request(createOrder, { body: {} });
    expect(server.seen.map((seen) => seen.headers['x-correlation-id'])).toEqual(['corr-1', 'caller', undefined, 'fixed']);
  });
});

/** The `x-signature-scheme` of a contract's security scheme, as the generator will embed it. */
function contractScheme(file: string, name: string): SignatureScheme {
  const doc = readYaml(join(repoRoot, 'contracts', file));
  const schemes = isObject(doc) && isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const scheme = schemes[name];
  if (!isObject(scheme) || !isObject(scheme['x-signature-scheme'])) throw new Error(`${file}: no x-signature-scheme on ${name}`);
  return scheme['x-signature-scheme'] as unknown as SignatureScheme;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');

/** The v3 check, written from the contract's prose: timestamp, nonce, METHOD, path?query, sha256(body). */
function checkV3Signature(seen: Seen, secret: string, bodyForHash = seen.body): string | undefined {
  const timestamp = String(seen.headers['x-api-timestamp'] ?? '');
  const nonce = String(seen.headers['x-api-nonce'] ?? '');
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return 'timestamp_out_of_window';
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(nonce)) return 'invalid_nonce';
  const expected = hmac(secret, [timestamp, nonce, seen.method, seen.url, sha256(bodyForHash)].join('\n'));
  return seen.headers['x-api-signature'] === expected ? undefined : 'invalid_signature';
}

/** The v1 check: key, then timestamp, METHOD, path?query, sha256(body). */
function checkV1Signature(seen: Seen, key: string, secret: string): string | undefined {
  if (seen.headers['x-api-key'] !== key) return 'INVALID_API_KEY';
  const timestamp = String(seen.headers['x-api-timestamp'] ?? '');
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return 'TIMESTAMP_OUT_OF_WINDOW';
  const expected = hmac(secret, [timestamp, seen.method, seen.url, sha256(seen.body)].join('\n'));
  return seen.headers['x-api-signature'] === expected ? undefined : 'INVALID_SIGNATURE';
}

describe('HMAC request signing', () => {
  const server = useRecordingServer(() => ({ status: 200, body: {} }));
  const v3Scheme = contractScheme('exchange-v3.openapi.yaml', 'hmacSignature');
  const v1Scheme = contractScheme('deposit-v1.openapi.yaml', 'hmac');
  const secret = 'hmac-secret-1';
  const v3Answer = (seen: Seen): Reply => {
    const failure = checkV3Signature(seen, secret);
    return failure === undefined
      ? { status: 200, body: envelope({ ok: true }) }
      : { status: 401, body: { state: 1, message: 'Unauthenticated.', result: null, error: { code: failure }, meta: { request_id: 'r', timestamp: 't' } } };
  };

  it('signs v3 requests (with a nonce) so the server recomputes the same signature', async () => {
    server.handler = v3Answer;
    const { client } = runtime(server.baseUrl, { token: 't', signer: createHmacSigner(v3Scheme, { secret }) });
    await client.request(createOrder, { body: { amount: '100.00', memo: 'ünïcode' } });
    await client.request(spec({ query: [{ name: 'filter[status]', commaSeparated: true }] }), {
      query: { 'filter[status]': ['new', 'paid'], page: 2 },
    });
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1]!.url).toContain('?');
    expect(server.seen[0]!.headers['x-api-nonce']).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(server.seen[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('uses the injected clock and nonce', async () => {
    server.handler = () => ({ status: 200, body: envelope(null) });
    const signer = createHmacSigner(v3Scheme, { secret }, { now: () => 1_790_000_000_999, nonce: () => 'nonce-0123456789ab' });
    await runtime(server.baseUrl, { signer }).client.request(spec());
    const seen = server.seen[0]!;
    expect(seen.headers['x-api-timestamp']).toBe('1790000000');
    expect(seen.headers['x-api-nonce']).toBe('nonce-0123456789ab');
    const canonical = ['1790000000', 'nonce-0123456789ab', 'GET', '/api/v3/things', sha256('')].join('\n');
    expect(seen.headers['x-api-signature']).toBe(hmac(secret, canonical));
  });

  it('rejects a nonce that breaks the scheme rule before sending', async () => {
    const signer = createHmacSigner(v3Scheme, { secret }, { nonce: () => 'short' });
    await expect(runtime(server.baseUrl, { signer }).client.request(spec())).rejects.toThrow(/nonce/);
    expect(server.seen).toHaveLength(0);
  });

  it('signs every attempt afresh', async () => {
    let calls = 0;
    server.handler = (seen) => (++calls === 1 ? { status: 503, body: '' } : v3Answer(seen));
    const { client } = runtime(server.baseUrl, { signer: createHmacSigner(v3Scheme, { secret }) });
    await client.request(spec());
    const nonces = server.seen.map((seen) => seen.headers['x-api-nonce']);
    expect(nonces).toHaveLength(2);
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('lets the server detect a body changed after signing', async () => {
    server.handler = v3Answer;
    const tampering: typeof fetch = (input, init) =>
      fetch(input, { ...init, body: typeof init?.body === 'string' ? init.body.replace('100.00', '999.00') : (init?.body ?? null) });
    const { client } = runtime(server.baseUrl, { signer: createHmacSigner(v3Scheme, { secret }), fetch: tampering });
    const error = await rejection(client.request(createOrder, { body: { amount: '100.00' } }));
    expect(error).toMatchObject({ status: 401, code: 'invalid_signature' });
    expect(server.seen[0]!.body).toContain('999.00');
  });

  it('signs a multipart body over the bytes sent, boundary and file included', async () => {
    server.handler = (seen) => {
      const failure = checkV3Signature(seen, secret);
      return failure === undefined ? { status: 200, body: envelope(null) } : { status: 401, body: { error: { code: failure } } };
    };
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.7'], { type: 'application/pdf' }), 'passport.pdf');
    const { client } = runtime(server.baseUrl, { signer: createHmacSigner(v3Scheme, { secret }) });
    const upload = spec({ method: 'POST', path: '/private/uploads/{upload}/file', body: { contentType: 'multipart/form-data' } });
    await client.request(upload, { path: { upload: 'up_1' }, body: form, headers: { 'content-type': 'multipart/form-data' } });
    expect(server.seen[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(server.seen[0]!.body).toContain('%PDF-1.7');
    // The file is inside the signature: the hash of an empty body does not verify.
    expect(checkV3Signature(server.seen[0]!, secret, '')).toBe('invalid_signature');
    await expect(client.request(upload, { path: { upload: 'up_1' }, body: 'x' })).rejects.toThrow(/FormData/);
  });

  it('sends the typed multipart body ({ file: Blob, ... }) as form parts, keeping a File name', async () => {
    server.handler = () => ({ status: 200, body: envelope(null) });
    const { client } = runtime(server.baseUrl);
    const upload = spec({ method: 'POST', path: '/private/uploads/{upload}/file', body: { contentType: 'multipart/form-data' } });
    const file = new File(['%PDF-1.7'], 'passport.pdf', { type: 'application/pdf' });
    await client.request(upload, { path: { upload: 'up_1' }, body: { file, note: 'front', tags: ['a', 'b'] } });
    const sent = server.seen[0]!;
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.body).toMatch(/name="file"; filename="passport.pdf"\r\nContent-Type: application\/pdf\r\n\r\n%PDF-1.7/);
    expect(sent.body).toMatch(/name="note"\r\n\r\nfront/);
    expect(sent.body.match(/name="tags"/g)).toHaveLength(2);
  });

  it('signs v1 requests with the key header and no nonce', async () => {
    server.handler = (seen) => {
      const failure = checkV1Signature(seen, 'pk_site', secret);
      return failure === undefined
        ? { status: 201, body: { data: { id: 'dep_1' } } }
        : { status: 401, body: { error: { code: failure, message: 'no' }, requestId: 'r' } };
    };
    const { client } = runtime(server.baseUrl, { basePath: '', errorFormat: 'v1', signer: createHmacSigner(v1Scheme, { secret, key: 'pk_site' }) });
    const response = await client.request(spec({ method: 'POST', path: '/v1/public/deposits' }), {
      body: { orderId: 'ORD-1', amount: '10' },
      query: { expand: 'aml' },
    });
    expect(response.status).toBe(201);
    expect(server.seen[0]!.headers['x-api-nonce']).toBeUndefined();

    const wrongKey = runtime(server.baseUrl, { basePath: '', errorFormat: 'v1', signer: createHmacSigner(v1Scheme, { secret: 'other' }) });
    expect(await rejection(wrongKey.client.request(spec({ path: '/v1/public/assets' })))).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
  });
});

describe('pagination', () => {
  const server = useRecordingServer(() => ({ status: 200, body: {} }));
  const all = Array.from({ length: 7 }, (_, index) => ({ id: `item-${index + 1}` }));
  const encodeCursor = (offset: number) => Buffer.from(String(offset)).toString('base64url');
  const decodeCursor = (cursor: string) => Number(Buffer.from(cursor, 'base64url').toString());

  function v3List(seen: Seen): Reply {
    const query = new URL(seen.url, 'http://x').searchParams;
    const perPage = Number(query.get('per_page') ?? 25);
    if (query.get('pagination') === 'cursor') {
      const cursor = query.get('cursor');
      const offset = cursor === null ? 0 : decodeCursor(cursor);
      const more = offset + perPage < all.length;
      const pagination = { mode: 'cursor', per_page: perPage, cursor, next_cursor: more ? encodeCursor(offset + perPage) : null, has_more: more };
      return { status: 200, body: envelope({ orders: all.slice(offset, offset + perPage) }, { pagination }) };
    }
    const page = Number(query.get('page') ?? 1);
    const items = all.slice((page - 1) * perPage, page * perPage);
    const pagination = { mode: 'page', current_page: page, per_page: perPage, total: all.length, last_page: Math.ceil(all.length / perPage), from: null, to: null };
    return { status: 200, body: envelope({ orders: items }, { pagination }) };
  }

  // v1: `page` wins over `cursor`; an empty cursor starts keyset paging.
  function v1List(seen: Seen): Reply {
    const query = new URL(seen.url, 'http://x').searchParams;
    const perPage = Number(query.get('perPage') ?? 20);
    const cursor = query.get('cursor');
    if (!query.has('page') && cursor !== null) {
      const offset = cursor === '' ? 0 : decodeCursor(cursor);
      const more = offset + perPage < all.length;
      const meta = { page: null, perPage, total: null, lastPage: null, nextCursor: more ? encodeCursor(offset + perPage) : null, hasMore: more };
      return { status: 200, body: { data: all.slice(offset, offset + perPage), meta } };
    }
    const page = Number(query.get('page') ?? 1);
    const lastPage = Math.ceil(all.length / perPage);
    const meta = { page, perPage, total: all.length, lastPage, nextCursor: null, hasMore: page < lastPage };
    return { status: 200, body: { data: all.slice((page - 1) * perPage, page * perPage), meta } };
  }

  const listOrders = spec({
    operationId: 'listOrders',
    path: '/private/orders',
    query: [{ name: 'filter[status]', commaSeparated: true }],
    pagination: { items: 'result.orders', modes: ['page', 'cursor'] },
  });
  const listDeposits = spec({ operationId: 'listDeposits', path: '/v1/public/deposits', pagination: { items: 'data', modes: ['page', 'cursor'] } });

  async function collect<T>(iterator: AsyncIterableIterator<T>): Promise<T[]> {
    const items: T[] = [];
    for await (const item of iterator) items.push(item);
    return items;
  }
  const queries = () => server.seen.map((seen) => Object.fromEntries(new URL(seen.url, 'http://x').searchParams));

  it('walks v3 pages, keeping the caller filters', async () => {
    server.handler = v3List;
    const { client } = runtime(server.baseUrl);
    const items = await collect(client.paginate(listOrders, { query: { per_page: 3, 'filter[status]': ['new', 'paid'] } }, 'page'));
    expect(items).toEqual(all);
    expect(queries()).toEqual([1, 2, 3].map((page) => ({ per_page: '3', 'filter[status]': 'new,paid', page: String(page) })));
  });

  it('walks v3 cursors by default: pagination=cursor first without a cursor, then next_cursor', async () => {
    server.handler = v3List;
    const { client } = runtime(server.baseUrl);
    const items = await collect(client.paginate(listOrders, { query: { per_page: 3, page: 4 } }));
    expect(items).toEqual(all);
    expect(queries()).toEqual([
      { per_page: '3', pagination: 'cursor' },
      { per_page: '3', pagination: 'cursor', cursor: encodeCursor(3) },
      { per_page: '3', pagination: 'cursor', cursor: encodeCursor(6) },
    ]);
  });

  it('walks v1 pages', async () => {
    server.handler = v1List;
    const { client } = runtime(server.baseUrl, { basePath: '', errorFormat: 'v1' });
    const items = await collect(client.paginate(listDeposits, { query: { perPage: 3, status: 'paid' } }, 'page'));
    expect(items).toEqual(all);
    expect(queries().map((query) => query.page)).toEqual(['1', '2', '3']);
    expect(queries().every((query) => query.status === 'paid')).toBe(true);
  });

  it('walks v1 cursors: an empty cursor first, then meta.nextCursor', async () => {
    server.handler = v1List;
    const { client } = runtime(server.baseUrl, { basePath: '', errorFormat: 'v1' });
    const items = await collect(client.paginate(listDeposits, { query: { perPage: 3, page: 2 } }, 'cursor'));
    expect(items).toEqual(all);
    expect(queries()).toEqual([
      { perPage: '3', cursor: '' },
      { perPage: '3', cursor: encodeCursor(3) },
      { perPage: '3', cursor: encodeCursor(6) },
    ]);
  });

  it('stops on an empty page and refuses an operation without pagination or the mode', async () => {
    server.handler = () => ({ status: 200, body: envelope({ orders: [] }, { pagination: { mode: 'page', current_page: 1, last_page: 9 } }) });
    const { client } = runtime(server.baseUrl);
    expect(await collect(client.paginate(listOrders, {}, 'page'))).toEqual([]);
    expect(server.seen).toHaveLength(1);
    await expect(collect(client.paginate(spec()))).rejects.toThrow(/not a paginated operation/);
    const pageOnly = { ...listOrders, pagination: { items: 'result.orders', modes: ['page'] } };
    await expect(collect(client.paginate(pageOnly, {}, 'cursor'))).rejects.toThrow(/no cursor pagination/);
  });
});

describe('verifyWebhookSignature', () => {
  const secret = 'whsec_test';
  const body = '{"id":"evt_1","type":"order.completed"}';
  const good = hmac(secret, body);

  it('accepts the hex HMAC-SHA256 of the raw body, as a string or bytes, in either case', () => {
    expect(verifyWebhookSignature(body, good, secret)).toBe(true);
    expect(verifyWebhookSignature(new TextEncoder().encode(body), good, secret)).toBe(true);
    expect(verifyWebhookSignature(body, good.toUpperCase(), secret)).toBe(true);
  });

  it('rejects another body, secret or signature', () => {
    expect(verifyWebhookSignature(`${body} `, good, secret)).toBe(false);
    expect(verifyWebhookSignature(body, good, 'other')).toBe(false);
    const flipped = (good[0] === 'a' ? 'b' : 'a') + good.slice(1);
    expect(verifyWebhookSignature(body, flipped, secret)).toBe(false);
  });

  it('returns false for garbage without throwing', () => {
    for (const signature of ['', 'zz', good.slice(0, -2), `${good}00`, `${good.slice(0, -1)}g`, `sha256=${good}`, 'abc']) {
      expect(verifyWebhookSignature(body, signature, secret)).toBe(false);
    }
    expect(verifyWebhookSignature(body, undefined as unknown as string, secret)).toBe(false);
  });
});
