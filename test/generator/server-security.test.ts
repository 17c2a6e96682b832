// The generated security middleware (<contract>Security(hooks)) over real HTTP, driven by the
// generated clients' own signer: each failure of the schemes answers the code the contract's
// catalog marks for it, in the envelope, and an admitted call reaches the operation (here: its 501).
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { createDepositV1Router, depositV1RoutesBasePath, depositV1Security } from '../../generated/deposit-v1/routes.js';
import { exchangeV3SignatureScheme } from '../../generated/exchange-v3/client.js';
import { createExchangeV3Router, exchangeV3RoutesBasePath, exchangeV3Security, keepRawBody } from '../../generated/exchange-v3/routes.js';
import { createHmacSigner, type RequestSigner } from '../../generated/runtime/client-signing.js';

const usedNonces = new Set<string>();
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(express.json({ verify: keepRawBody }));
  app.use(exchangeV3RoutesBasePath, createExchangeV3Router({}, {
    routeMiddleware: exchangeV3Security({
      bearerToken: (token) => ({
        'every-scope': { scopes: ['usage:read'] },
        'no-scope': { scopes: [] },
        signing: { scopes: ['usage:read'], signingSecret: 'v3-hmac-secret' },
      })[token],
      nonceUsed: (nonce) => usedNonces.has(nonce) || (usedNonces.add(nonce), false),
    }),
  }));
  app.use(depositV1RoutesBasePath, createDepositV1Router({}, {
    routeMiddleware: depositV1Security({ apiKey: (key) => (key === 'site-key' ? { scopes: [], signingSecret: 'site-secret' } : undefined) }),
  }));
  server = app.listen(0);
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

/** GET `path` with the headers, signed by `signer` (as the generated clients sign); the status and error code. */
async function call(path: string, headers: Record<string, string>, signer?: RequestSigner) {
  const url = new URL(path, base);
  const sent = new Headers(headers);
  await signer?.({ method: 'GET', url, headers: sent, body: undefined });
  const response = await fetch(url, { headers: sent });
  const body = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: body.error?.code };
}

describe('exchange v3: bearer, scope and signature', () => {
  it.each<[string, Record<string, string>, number, string]>([
    ['no token', {}, 401, 'authentication_required'],
    ['an unknown token', { authorization: 'Bearer nobody' }, 401, 'invalid_token'],
    ['a key without the scope', { authorization: 'Bearer no-scope' }, 403, 'scope_denied'],
    ['a key that must sign, unsigned', { authorization: 'Bearer signing' }, 401, 'signature_required'],
    ['a known key with the scope', { authorization: 'Bearer every-scope' }, 501, 'not_implemented'],
  ])('%s: %i %s', async (_case, headers, status, code) => {
    expect(await call('/api/v3/private/usage', headers)).toEqual({ status, code });
  });

  it('verifies the signature of a key that must sign, and refuses a wrong secret and a replayed nonce', async () => {
    const headers = { authorization: 'Bearer signing' };
    const signed = createHmacSigner(exchangeV3SignatureScheme, { secret: 'v3-hmac-secret' }, { nonce: () => 'nonce-0123456789abcdef' });
    expect(await call('/api/v3/private/usage', headers, signed)).toEqual({ status: 501, code: 'not_implemented' });
    expect(await call('/api/v3/private/usage', headers, signed)).toEqual({ status: 401, code: 'signature_replay' });
    const wrong = createHmacSigner(exchangeV3SignatureScheme, { secret: 'another-secret' });
    expect(await call('/api/v3/private/usage', headers, wrong)).toEqual({ status: 401, code: 'invalid_signature' });
  });

  it('lets a public operation through without credentials', async () => {
    expect(await call('/api/v3/ping', {})).toEqual({ status: 501, code: 'not_implemented' });
  });
});

describe('deposit v1: signing key', () => {
  const path = '/v1/public/assets';
  it('admits a request signed with the site secret', async () => {
    const signer = createHmacSigner(depositV1SignatureScheme, { key: 'site-key', secret: 'site-secret' });
    expect(await call(path, {}, signer)).toEqual({ status: 501, code: 'NOT_IMPLEMENTED' });
  });

  it.each<[string, RequestSigner | undefined, number, string]>([
    ['unsigned', undefined, 401, 'UNAUTHORIZED'],
    ['an unknown key', createHmacSigner(depositV1SignatureScheme, { key: 'other-key', secret: 'site-secret' }), 401, 'INVALID_API_KEY'],
    ['a wrong secret', createHmacSigner(depositV1SignatureScheme, { key: 'site-key', secret: 'wrong' }), 401, 'INVALID_SIGNATURE'],
    ['an old timestamp', createHmacSigner(depositV1SignatureScheme, { key: 'site-key', secret: 'site-secret' }, { now: () => Date.now() - 3_600_000 }), 401, 'TIMESTAMP_OUT_OF_WINDOW'],
  ])('refuses %s: %i %s', async (_case, signer, status, code) => {
    expect(await call(path, {}, signer)).toEqual({ status, code });
  });
});
