// Authentication over real HTTP: the nine checks of the description for every private v3
// operation (the table is the generated route data, never a hand list), the v3 HMAC signature
// (window, nonce replay, tampering), and the v1 site signature.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositV1Operations, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { depositV1ErrorCodes } from '../../generated/deposit-v1/contract-data.js';
import { depositV1Routes } from '../../generated/deposit-v1/routes.js';
import { ApiError, exchangeV3Operations, exchangeV3SignatureScheme, type RequestSigner } from '../../generated/exchange-v3/client.js';
import { exchangeV3ErrorCodes } from '../../generated/exchange-v3/contract-data.js';
import { exchangeV3Routes } from '../../generated/exchange-v3/routes.js';
import type { ClientRuntime, OperationSpec } from '../../generated/runtime/client-runtime.js';
import { mintKey, startMock, v1Client, v3Client, v3Signer, type MintedKey, type Mock } from './support/keys.js';
import { validPathValues } from './support/paths.js';

interface Outcome {
  status: number;
  code: string | undefined;
}

/** The answer of one call: the status and, for an error, its code. */
async function call(runtime: ClientRuntime, spec: OperationSpec, input: Parameters<ClientRuntime['request']>[1] = {}): Promise<Outcome> {
  try {
    const response = await runtime.request(spec, input);
    return { status: response.status, code: undefined };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code };
    throw error;
  }
}

const v3Specs = exchangeV3Operations as Readonly<Record<string, OperationSpec>>;
const v1Specs = depositV1Operations as Readonly<Record<string, OperationSpec>>;
const v3Catalog: Readonly<Record<string, { status: number }>> = exchangeV3ErrorCodes;
const privateRoutes = exchangeV3Routes.filter((route) => route.scope !== undefined);
const signatureCodes = ['signature_required', 'invalid_signature', 'signature_replay'];

let mock: Mock;
const keys: Record<string, MintedKey> = {};

beforeAll(async () => {
  mock = await startMock();
  const past = new Date(mock.sandbox.clock.nowMs() - 3_600_000).toISOString();
  keys.clientInactive = await mintKey(mock, { client_active: false });
  keys.apiAccessOff = await mintKey(mock, { api_access_enabled: false });
  keys.keyInactive = await mintKey(mock, { key_active: false });
  keys.expired = await mintKey(mock, { expires_at: past });
  keys.ipAllowlist = await mintKey(mock, { ip_allowlist: ['203.0.113.7'] });
  keys.noScopes = await mintKey(mock, { scopes: [] });
  keys.hmac = await mintKey(mock, { hmac_required: true });
  keys.plain = await mintKey(mock);
});

afterAll(async () => {
  await mock.close();
});

interface Check {
  step: number;
  name: string;
  code: string;
  /** The client to call with (built once the mock runs). */
  client(): ClientRuntime;
  /** Why the check does not apply to a route, or undefined when it does. */
  skip?(route: (typeof privateRoutes)[number]): string | undefined;
}

const checks: Check[] = [
  { step: 1, name: 'no token', code: 'authentication_required', client: () => v3Client(mock).runtime },
  { step: 2, name: 'unknown token', code: 'invalid_token', client: () => v3Client(mock, 'eak_no_such_token_0000000000000000000000').runtime },
  { step: 3, name: 'client inactive', code: 'client_inactive', client: () => v3Client(mock, keys.clientInactive!.token).runtime },
  { step: 4, name: 'API access off', code: 'api_access_disabled', client: () => v3Client(mock, keys.apiAccessOff!.token).runtime },
  { step: 5, name: 'key inactive', code: 'invalid_token', client: () => v3Client(mock, keys.keyInactive!.token).runtime },
  { step: 6, name: 'key expired', code: 'token_expired', client: () => v3Client(mock, keys.expired!.token).runtime },
  // The test runs on loopback without X-Forwarded-For: the caller is 127.0.0.1.
  { step: 7, name: 'IP not allowed', code: 'ip_not_allowed', client: () => v3Client(mock, keys.ipAllowlist!.token).runtime },
  {
    step: 8,
    name: 'scope denied',
    code: 'scope_denied',
    client: () => v3Client(mock, keys.noScopes!.token).runtime,
    skip: (route) => (route.scope === null ? 'x-scope null: any active key passes, there is no scope to lack' : undefined),
  },
  { step: 9, name: 'signature required', code: 'signature_required', client: () => v3Client(mock, keys.hmac!.token).runtime },
];

const table = privateRoutes.flatMap((route) => checks.map((check) => ({ route, check, operationId: route.operationId, name: check.name })));

describe('the nine checks on every private v3 operation', () => {
  it('covers every private operation of the contract', () => {
    expect(privateRoutes.length).toBeGreaterThan(0);
    expect(new Set(table.map((row) => row.operationId)).size).toBe(privateRoutes.length);
  });

  it.each(table)('$operationId: $name', async ({ route, check }) => {
    const reason = check.skip?.(route);
    if (reason !== undefined) {
      // Skipped with its reason; the same key must then pass authentication.
      const outcome = await call(check.client(), v3Specs[route.operationId]!, { path: validPathValues('v3', route) });
      expect(outcome.status, reason).toBe(200);
      return;
    }
    const outcome = await call(check.client(), v3Specs[route.operationId]!, { path: validPathValues('v3', route) });
    expect(outcome).toEqual({ status: v3Catalog[check.code]!.status, code: check.code });
  });

  it('the scopeless key reaches /private/ping but no scoped operation', async () => {
    const client = v3Client(mock, keys.noScopes!.token);
    expect((await client.privatePing()).status).toBe(200);
  });

  it('an expired key passes until the clock reaches its expiry', async () => {
    const soon = new Date(mock.sandbox.clock.nowMs() + 60_000).toISOString();
    const key = await mintKey(mock, { expires_at: soon });
    const client = v3Client(mock, key.token);
    expect((await client.privatePing()).status).toBe(200);
    await mock.control.advanceClock({ body: { seconds: 61 } });
    expect(await call(client.runtime, v3Specs.privatePing!)).toEqual({ status: 401, code: 'token_expired' });
  });
});

describe('v3 HMAC signatures', () => {
  const ping = () => v3Specs.privatePing!;
  const signedClient = (signer: RequestSigner, token = keys.hmac!.token) => v3Client(mock, token, { signer });

  it('accepts a valid signature on /private/ping', async () => {
    const response = await signedClient(v3Signer(mock, keys.hmac!.hmacSecret)).privatePing();
    expect(response.status).toBe(200);
  });

  it('accepts a valid signature on a POST with a body (the answer comes from past authentication)', async () => {
    const client = signedClient(v3Signer(mock, keys.hmac!.hmacSecret));
    const outcome = await call(client.runtime, v3Specs.createQuote!, { body: { route_id: 1, amount: '0.5' } });
    expect(outcome.status).not.toBe(401);
    expect(signatureCodes).not.toContain(outcome.code);
  });

  it('signs the path with its query string as sent', async () => {
    const client = signedClient(v3Signer(mock, keys.hmac!.hmacSecret));
    const outcome = await call(client.runtime, v3Specs.listOrders!, { query: { page: 2, per_page: 5 } });
    expect(signatureCodes).not.toContain(outcome.code);
  });

  it('rejects a signature made with another secret', async () => {
    const outcome = await call(signedClient(v3Signer(mock, keys.plain!.hmacSecret)).runtime, ping());
    expect(outcome).toEqual({ status: 401, code: 'invalid_signature' });
  });

  it('rejects a timestamp outside the window, on the virtual clock', async () => {
    const window = exchangeV3SignatureScheme.window_seconds;
    const old = signedClient(v3Signer(mock, keys.hmac!.hmacSecret, { skewMs: -(window + 100) * 1000 }));
    expect(await call(old.runtime, ping())).toEqual({ status: 401, code: 'invalid_signature' });
    const future = signedClient(v3Signer(mock, keys.hmac!.hmacSecret, { skewMs: (window + 100) * 1000 }));
    expect(await call(future.runtime, ping())).toEqual({ status: 401, code: 'invalid_signature' });
  });

  it('rejects a request signed before the clock moved past the window', async () => {
    const signedAt = mock.sandbox.clock.nowMs();
    const window = exchangeV3SignatureScheme.window_seconds;
    await mock.control.advanceClock({ body: { seconds: window + 1 } });
    const stale = signedClient(v3Signer(mock, keys.hmac!.hmacSecret, { skewMs: signedAt - mock.sandbox.clock.nowMs() }));
    expect(await call(stale.runtime, ping())).toEqual({ status: 401, code: 'invalid_signature' });
  });

  it('rejects a replayed nonce with signature_replay', async () => {
    const nonce = 'replayed-nonce-0123456789';
    const client = signedClient(v3Signer(mock, keys.hmac!.hmacSecret, { nonce: () => nonce }));
    expect((await client.privatePing()).status).toBe(200);
    expect(await call(client.runtime, ping())).toEqual({ status: 401, code: 'signature_replay' });
  });

  it('keeps nonces per key: another key may use the same nonce', async () => {
    const other = await mintKey(mock, { hmac_required: true });
    const nonce = 'shared-nonce-0123456789ab';
    expect((await signedClient(v3Signer(mock, keys.hmac!.hmacSecret, { nonce: () => nonce })).privatePing()).status).toBe(200);
    expect((await signedClient(v3Signer(mock, other.hmacSecret, { nonce: () => nonce }), other.token).privatePing()).status).toBe(200);
  });

  it('rejects a nonce that breaks the scheme rule', async () => {
    const rule = exchangeV3SignatureScheme.nonce!;
    const short = 'a'.repeat(rule.min_length - 1);
    // The generated signer refuses to send a bad nonce, so sign with a good one and swap it.
    const signer = v3Signer(mock, keys.hmac!.hmacSecret);
    const swapping: RequestSigner = async (request) => {
      await signer(request);
      request.headers.set(exchangeV3SignatureScheme.headers.nonce!, short);
    };
    expect(await call(signedClient(swapping).runtime, ping())).toEqual({ status: 401, code: 'invalid_signature' });
  });

  it('rejects a tampered body', async () => {
    const signer = v3Signer(mock, keys.hmac!.hmacSecret);
    const tampering: RequestSigner = (request) => signer({ ...request, body: JSON.stringify({ route_id: 2, amount: '9' }) });
    const outcome = await call(signedClient(tampering).runtime, v3Specs.createQuote!, { body: { route_id: 1, amount: '0.5' } });
    expect(outcome).toEqual({ status: 401, code: 'invalid_signature' });
  });

  it('asks for every signature header when one is missing', async () => {
    const signer = v3Signer(mock, keys.hmac!.hmacSecret);
    const dropping: RequestSigner = async (request) => {
      await signer(request);
      request.headers.delete(exchangeV3SignatureScheme.headers.timestamp);
    };
    expect(await call(signedClient(dropping).runtime, ping())).toEqual({ status: 401, code: 'signature_required' });
  });

  it('checks a signature sent voluntarily by a key that does not require one', async () => {
    const good = signedClient(v3Signer(mock, keys.plain!.hmacSecret), keys.plain!.token);
    expect((await good.privatePing()).status).toBe(200);
    const bad = signedClient(v3Signer(mock, keys.hmac!.hmacSecret), keys.plain!.token);
    expect(await call(bad.runtime, ping())).toEqual({ status: 401, code: 'invalid_signature' });
  });

  it('statuses of the signature codes come from the catalog', () => {
    for (const code of signatureCodes) expect(v3Catalog[code]!.status).toBe(401);
  });
});

describe('v1 site signatures', () => {
  const site = () => ({ key: mock.site.apiKey, secret: mock.site.apiSecret });
  const assets = () => v1Specs.listAssets!;

  it('missing signature headers → UNAUTHORIZED', async () => {
    expect(await call(v1Client(mock).runtime, assets())).toEqual({ status: depositV1ErrorCodes.UNAUTHORIZED.status, code: 'UNAUTHORIZED' });
  });

  it('an unknown site key → INVALID_API_KEY', async () => {
    const outcome = await call(v1Client(mock, { key: 'site_unknown', secret: 'x' }).runtime, assets());
    expect(outcome).toEqual({ status: depositV1ErrorCodes.INVALID_API_KEY.status, code: 'INVALID_API_KEY' });
  });

  it('a stale timestamp → TIMESTAMP_OUT_OF_WINDOW', async () => {
    const window = depositV1SignatureScheme.window_seconds;
    const outcome = await call(v1Client(mock, site(), { skewMs: -(window + 100) * 1000 }).runtime, assets());
    expect(outcome).toEqual({ status: depositV1ErrorCodes.TIMESTAMP_OUT_OF_WINDOW.status, code: 'TIMESTAMP_OUT_OF_WINDOW' });
  });

  it('a stale timestamp is told with the window in seconds', async () => {
    const window = depositV1SignatureScheme.window_seconds;
    const refused = await v1Client(mock, site(), { skewMs: -(window + 100) * 1000 })
      .runtime.request(assets())
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toContain(`${depositV1SignatureScheme.headers.timestamp} is more than ${window} seconds away`);
  });

  it('a wrong secret → INVALID_SIGNATURE', async () => {
    const outcome = await call(v1Client(mock, { key: mock.site.apiKey, secret: 'sec_wrong' }).runtime, assets());
    expect(outcome).toEqual({ status: depositV1ErrorCodes.INVALID_SIGNATURE.status, code: 'INVALID_SIGNATURE' });
  });

  it('a site minted through the control API signs with its own secret', async () => {
    const { body } = await mock.control.createSite({ body: { name: 'auth-test' } });
    const client = v1Client(mock, { key: body.result.site.api_key, secret: body.result.api_secret });
    expect((await call(client.runtime, assets())).status).not.toBe(401);
  });

  it.each(depositV1Routes.map((route) => ({ route, operationId: route.operationId })))(
    '$operationId: a good signature gets past authentication',
    async ({ route }) => {
      const outcome = await call(v1Client(mock, site()).runtime, v1Specs[route.operationId]!, {
        path: validPathValues('v1', route),
        ...(route.body ? { body: {} } : {}),
      });
      expect(outcome.status).not.toBe(401);
    },
  );
});
