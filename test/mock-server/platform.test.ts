// The v3 platform over real HTTP: the envelope on every answer (request id, correlation id,
// timestamp on the virtual clock), the transport errors (404, 405, 400, 413, 415) in each
// family's format, the public self-description endpoints and the account endpoints of the
// default token. Every JSON body is checked against the generated response validators.
import { readFileSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createHmacSigner, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { depositV1Info } from '../../generated/deposit-v1/contract-data.js';
import { exchangeV3Info } from '../../generated/exchange-v3/contract-data.js';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { expectContractBody, expectFamilyResponse, isRecord, type FamilyName } from './support/contract.js';
import { bearer, send, type RawRequest, type RawResponse } from './support/http.js';
import { fillPath, routeOf, validPathValues } from './support/paths.js';
import { startTestServer, type TestServer } from './support/server.js';
import { contractsDir } from '../support/contracts.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: 11 });
});
afterAll(async () => {
  await server.close();
});

interface CallOptions extends RawRequest {
  path?: Record<string, string>;
  /** Send the default token (default: for operations with a scope or null scope). */
  auth?: boolean;
}

/** One operation over raw HTTP; the answer is checked for its family's format and contract. */
async function call(family: FamilyName, operationId: string, options: CallOptions = {}): Promise<RawResponse> {
  const route = routeOf(family, operationId);
  const url = fillPath(family, route, { ...validPathValues(family, route), ...options.path });
  const auth = options.auth ?? route.scope !== undefined;
  const response = await send(server.url, url, {
    ...options,
    method: options.method ?? route.method.toUpperCase(),
    headers: { ...(auth ? bearer(server.token) : {}), ...options.headers },
  });
  expectFamilyResponse(family, response, `${operationId} ${url}`);
  if (response.json !== undefined) expectContractBody(family, operationId, response.status, response.json);
  return response;
}

function result(response: RawResponse): Record<string, unknown> {
  expect(isRecord(response.json) && response.json.state, response.text).toBe(0);
  const value = isRecord(response.json) ? response.json.result : undefined;
  return isRecord(value) ? value : {};
}

function meta(response: RawResponse): Record<string, unknown> {
  const value = isRecord(response.json) ? response.json.meta : undefined;
  return isRecord(value) ? value : {};
}

function errorOf(response: RawResponse): { code?: unknown; details?: unknown; message?: unknown } {
  const value = isRecord(response.json) ? response.json.error : undefined;
  return isRecord(value) ? value : {};
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8')) as unknown;
}

describe('the v3 envelope', () => {
  it('carries meta.request_id equal to the X-Request-Id header, a timestamp and a null correlation id', async () => {
    const first = await call('v3', 'ping');
    const second = await call('v3', 'ping');
    expect(first.status).toBe(200);
    expect(meta(first).request_id).toBe(first.headers.get('x-request-id'));
    expect(meta(first).request_id).not.toBe(meta(second).request_id);
    expect(meta(first).correlation_id).toBeNull();
    expect(new Date(String(meta(first).timestamp)).toISOString()).toBe(meta(first).timestamp);
  });

  it('takes meta.timestamp from the virtual clock: frozen, then advanced', async () => {
    try {
      const frozen = await server.control.freezeClock();
      const now = frozen.body.result.now;
      const pinged = await call('v3', 'ping');
      expect(meta(pinged).timestamp).toBe(new Date(now).toISOString());

      await server.control.advanceClock({ body: { seconds: 3600 } });
      const later = await call('v3', 'privatePing');
      expect(later.status).toBe(200);
      expect(meta(later).timestamp).toBe(new Date(Date.parse(now) + 3_600_000).toISOString());

      // Errors carry the same clock.
      const missing = await call('v3', 'getPublicContract', { path: { contract: 'no-such-contract' } });
      expect(meta(missing).timestamp).toBe(new Date(Date.parse(now) + 3_600_000).toISOString());
    } finally {
      await server.control.resetSandbox();
    }
  });

  it('echoes X-Correlation-Id in meta.correlation_id, on successes and errors', async () => {
    const ok = await call('v3', 'ping', { headers: { 'X-Correlation-Id': 'checkout-7f3a' } });
    expect(meta(ok).correlation_id).toBe('checkout-7f3a');
    const notFound = await call('v3', 'getPublicSchema', { path: { schema: 'nope.v9' }, headers: { 'X-Correlation-Id': 'trace-404' } });
    expect(notFound.status).toBe(404);
    expect(meta(notFound).correlation_id).toBe('trace-404');
    const exactly128 = 'c'.repeat(128);
    expect(meta(await call('v3', 'privatePing', { headers: { 'X-Correlation-Id': exactly128 } })).correlation_id).toBe(exactly128);
  });

  it.each(['ping', 'privatePing', 'getClient'])('rejects an X-Correlation-Id over 128 characters on %s with 422 validation_error and details', async (operationId) => {
    const response = await call('v3', operationId, { headers: { 'X-Correlation-Id': 'c'.repeat(129) } });
    expect(response.status).toBe(422);
    expect(errorOf(response).code).toBe('validation_error');
    const details = errorOf(response).details;
    expect(isRecord(details) && Object.keys(details).some((field) => /x-correlation-id/i.test(field)), JSON.stringify(details)).toBe(true);
    // An invalid correlation id is not echoed (meta.correlation_id is at most 128 characters).
    expect(meta(response).correlation_id).toBeNull();
  });

  it('answers an unknown route with a 404 not_found envelope', async () => {
    for (const path of ['/api/v3/no-such-route', '/api/v3/private/no-such-route', '/api/v3/public/contracts/a/b', '/no-such-root']) {
      const response = await send(server.url, path, { headers: bearer(server.token) });
      expectFamilyResponse('v3', response, path);
      expect(response.status, path).toBe(404);
      expect(errorOf(response).code).toBe('not_found');
    }
  });

  it('answers a known path with another method with 405 method_not_allowed and Allow', async () => {
    const cases: [string, string, string][] = [
      ['POST', '/api/v3/ping', 'GET'],
      ['DELETE', '/api/v3/private/client', 'GET'],
      ['PUT', '/api/v3/private/exchange/orders', 'POST'],
    ];
    for (const [method, path, allow] of cases) {
      const response = await send(server.url, path, { method, headers: bearer(server.token) });
      expectFamilyResponse('v3', response, `${method} ${path}`);
      expect(response.status).toBe(405);
      expect(errorOf(response).code).toBe('method_not_allowed');
      expect(response.headers.get('allow')?.split(/,\s*/)).toContain(allow);
    }
  });

  it('answers malformed JSON with 400 bad_request', async () => {
    const response = await call('v3', 'createQuote', { headers: { 'Content-Type': 'application/json' }, body: '{"amount": ' });
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('bad_request');
  });

  it('answers a body over the v3 limit (info.x-body-limit-bytes) with 413 payload_too_large', async () => {
    const body = JSON.stringify({ comment: 'x'.repeat(exchangeV3Info['x-body-limit-bytes']) });
    const response = await call('v3', 'createQuote', { headers: { 'Content-Type': 'application/json' }, body });
    expect(response.status).toBe(413);
    expect(errorOf(response).code).toBe('payload_too_large');
    // The server is still up.
    expect((await call('v3', 'ping')).status).toBe(200);
  });

  it('answers a v1 body over its own, smaller limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const error = await server.v1
      .createDeposit({ body: { order_id: 'x'.repeat(depositV1Info['x-body-limit-bytes']), asset: 'BTC' } })
      .then(() => null, (e: unknown) => e as { status: number; code: string });
    expect(error?.status).toBe(413);
    expect(error?.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('reads a body sent without a Content-Type as JSON', async () => {
    // fetch always adds a Content-Type to a string body; node:http sends none.
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${server.url}/__mock/clock/advance`, { method: 'POST' }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end(JSON.stringify({ seconds: 1 }));
    });
    expect(status).toBe(200);
  });

  it('answers a body that is not JSON with 415 unsupported_media_type', async () => {
    const response = await call('v3', 'createQuote', { headers: { 'Content-Type': 'text/plain' }, body: '{}' });
    expect(response.status).toBe(415);
    expect(errorOf(response).code).toBe('unsupported_media_type');
  });

  it('answers JSON declared in another charset than UTF-8 with 415, rather than read it as UTF-8', async () => {
    // "é" in ISO-8859-1 is one byte that is not UTF-8: read as UTF-8 it would become U+FFFD.
    const latin1 = Buffer.from('{"comment":"caf\u00e9"}', 'latin1');
    const refused = await call('v3', 'createQuote', { headers: { 'Content-Type': 'application/json; charset=ISO-8859-1' }, body: latin1 });
    expect(refused.status).toBe(415);
    expect(errorOf(refused).code).toBe('unsupported_media_type');
    expect(isRecord(refused.json) && refused.json.message).toContain('ISO-8859-1');
    // UTF-8 however it is spelled is read: this empty quote request gets past the media type to validation.
    for (const type of ['application/json; charset="UTF-8"', 'application/json;charset=utf8', 'application/problem+json; charset=utf-8']) {
      const read = await call('v3', 'createQuote', { headers: { 'Content-Type': type }, body: '{}' });
      expect(read.status, type).toBe(422);
    }
  });
});

describe('v1 errors', () => {
  const v1Signed = (path: string, method: string, body?: string): Promise<RawResponse> => {
    const signer = createHmacSigner(depositV1SignatureScheme, { key: server.site.apiKey, secret: server.site.apiSecret }, { now: () => server.sandbox.clock.nowMs() });
    const headers = new Headers(body === undefined ? {} : { 'Content-Type': 'application/json' });
    void signer({ method, url: new URL(server.url + path), headers, body });
    return send(server.url, path, { method, headers: Object.fromEntries(headers), ...(body === undefined ? {} : { body }) });
  };

  it('use the v1 body: error.code and error.message, requestId equal to X-Request-Id', async () => {
    const notFound = await v1Signed('/v1/public/no-such-route', 'GET');
    expectFamilyResponse('v1', notFound, 'unknown v1 route');
    expect(notFound.status).toBe(404);
    expect(errorOf(notFound).code).toBe('NOT_FOUND');
    expect(errorOf(notFound).message).toBeTypeOf('string');
    expect(isRecord(notFound.json) && 'state' in notFound.json).toBe(false);

    const wrongMethod = await v1Signed('/v1/public/assets', 'DELETE');
    expectFamilyResponse('v1', wrongMethod, 'DELETE /v1/public/assets');
    expect(wrongMethod.status).toBe(405);
    expect(errorOf(wrongMethod).code).toBe('METHOD_NOT_ALLOWED');
    expect(wrongMethod.headers.get('allow')).toContain('GET');
  });

  it('answer malformed JSON with 400 BAD_REQUEST (signed over the bytes sent)', async () => {
    const response = await v1Signed('/v1/public/deposits', 'POST', '{"amount": ');
    expectFamilyResponse('v1', response, 'malformed v1 body');
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('BAD_REQUEST');
    expectContractBody('v1', 'createDeposit', 400, response.json);
  });
});

describe('public endpoints', () => {
  it('/ping answers without a token', async () => {
    const response = await call('v3', 'ping', { auth: false });
    expect(response.status).toBe(200);
  });

  it('/openapi.yaml is the bundled v3 contract as application/yaml: its paths are the generated routes', async () => {
    const response = await send(server.url, `${exchangeV3RoutesBasePath}/openapi.yaml`);
    expect(response.status).toBe(200);
    expect(response.contentType).toMatch(/^application\/yaml/);
    const document = parse(response.text) as { openapi: string; paths: Record<string, Record<string, { operationId?: string }>> };
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(document.paths).sort()).toEqual([...new Set(exchangeV3Routes.map((r) => r.path))].sort());
    const operationIds = Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((op) => (isRecord(op) && typeof op.operationId === 'string' ? [op.operationId] : [])));
    expect(operationIds.sort()).toEqual(exchangeV3Routes.map((r) => r.operationId).sort());
    expect(response.text).toBe(readFileSync(join(contractsDir, '..', 'generated', 'exchange-v3', 'openapi.yaml'), 'utf8'));
  });

  it('/public/contracts is contracts/platform-contracts.yaml; each key answers, an unknown one is 404 not_found', async () => {
    const { contracts } = parse(readFileSync(join(contractsDir, 'platform-contracts.yaml'), 'utf8')) as { contracts: { key: string }[] };
    const list = await call('v3', 'listPublicContracts');
    expect(list.status).toBe(200);
    expect(result(list).contracts).toEqual(contracts);
    for (const entry of contracts) {
      const one = await call('v3', 'getPublicContract', { path: { contract: entry.key } });
      expect(result(one).contract).toEqual(entry);
    }
    const missing = await call('v3', 'getPublicContract', { path: { contract: 'no-such-contract' } });
    expect(missing.status).toBe(404);
    expect(errorOf(missing).code).toBe('not_found');
  });

  it('/public/schemas lists one entry per contracts/schemas file, and each endpoint serves that file', async () => {
    const files = readdirSync(join(contractsDir, 'schemas')).filter((f) => f.endsWith('.json')).sort();
    const list = await call('v3', 'listPublicSchemas');
    const schemas = result(list).schemas as { key: string; endpoint: string }[];
    expect(schemas.map((s) => s.key).sort()).toEqual(files.map((f) => f.replace(/\.json$/, '')));
    for (const entry of schemas) {
      const viaEndpoint = await send(server.url, entry.endpoint);
      expectFamilyResponse('v3', viaEndpoint, entry.endpoint);
      expect(viaEndpoint.status, entry.endpoint).toBe(200);
      const viaOperation = await call('v3', 'getPublicSchema', { path: { schema: entry.key } });
      expect(result(viaOperation).schema).toEqual(readJson(join(contractsDir, 'schemas', `${entry.key}.json`)));
      expect(viaEndpoint.json).toMatchObject({ result: { schema: result(viaOperation).schema } });
    }
    const missing = await call('v3', 'getPublicSchema', { path: { schema: 'no-such-schema.v1' } });
    expect(missing.status).toBe(404);
    expect(errorOf(missing).code).toBe('not_found');
  });

  it('/public/orders/statuses are the states of the order machine, is_final = terminal', async () => {
    const machine = parse(readFileSync(join(contractsDir, 'machines', 'order.yaml'), 'utf8')) as { states: Record<string, unknown>; terminal: string[] };
    const response = await call('v3', 'listPublicOrderStatuses');
    const statuses = result(response).statuses as { code: string; is_final: boolean }[];
    expect(statuses.map((s) => s.code)).toEqual(Object.keys(machine.states));
    for (const status of statuses) expect(status.is_final, status.code).toBe(machine.terminal.includes(status.code));
  });

  it('/public/rates.xml is well-formed application/xml with a <rates> root', async () => {
    const response = await send(server.url, `${exchangeV3RoutesBasePath}/public/rates.xml`);
    expect(response.status).toBe(200);
    expect(response.contentType).toMatch(/^application\/xml/);
    expect(response.text.startsWith('<?xml')).toBe(true);
    expect(response.text).toMatch(/<rates\b[^>]*(\/>|>[\s\S]*<\/rates>)/);
    expectBalancedXml(response.text);
  });
});

describe('account endpoints with the default token', () => {
  it('/private/ping, /private/client, /private/usage, /private/contracts, /private/schemas and /private/orders/statuses match their contract', async () => {
    for (const operationId of ['privatePing', 'getClient', 'getUsage', 'listContracts', 'listSchemas', 'listOrderStatuses']) {
      const response = await call('v3', operationId);
      expect(response.status, `${operationId}: ${response.text.slice(0, 300)}`).toBe(200);
    }
    const contract = await call('v3', 'getContract', { path: { contract: 'client-health' } });
    expect(contract.status).toBe(200);
    const schema = await call('v3', 'getSchema', { path: { schema: 'client-health.v1' } });
    expect(result(schema).schema).toEqual(readJson(join(contractsDir, 'schemas', 'client-health.v1.json')));
  });

  it('/private/client shows the default token with every scope of the contract', async () => {
    const response = await call('v3', 'getClient');
    const token = (result(response).api_token ?? {}) as { scopes?: string[] };
    const scopes = new Set(exchangeV3Routes.flatMap((r) => (typeof r.scope === 'string' ? [r.scope] : [])));
    expect(new Set(token.scopes)).toEqual(scopes);
  });

  it('/private/health/client is a client-health-v1 report', async () => {
    const response = await call('v3', 'getClientHealth');
    expect(response.status).toBe(200);
    expect(result(response).health).toMatchObject({ version: 'client-health-v1' });
  });

  it('/private/usage counts the requests of the key', async () => {
    const before = result(await call('v3', 'getUsage')) as { quota: { day: { used: number } } };
    await call('v3', 'privatePing');
    const after = result(await call('v3', 'getUsage')) as { quota: { day: { used: number } } };
    expect(after.quota.day.used).toBeGreaterThan(before.quota.day.used);
  });

  it('/private/scopes lists every x-scope of the contract with the endpoints that need it', async () => {
    const response = await call('v3', 'listScopes');
    const entries = result(response).scopes as { scope: string; endpoints: string[] }[];
    const byScope = new Map(entries.map((e) => [e.scope, e]));
    const expected = new Map<string, string[]>();
    for (const route of exchangeV3Routes) {
      if (typeof route.scope !== 'string') continue;
      expected.set(route.scope, [...(expected.get(route.scope) ?? []), `${route.method.toUpperCase()} ${route.path}`]);
    }
    expect([...byScope.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [scope, endpoints] of expected) {
      // `METHOD /path` as the contract writes paths; a base-path prefix is tolerated.
      const listed = (byScope.get(scope)?.endpoints ?? []).map((e) => e.replace(` ${exchangeV3RoutesBasePath}/`, ' /'));
      expect(listed.sort(), scope).toEqual(endpoints.sort());
    }
  });
});

/** Every start tag has its end tag, properly nested (a small check; the file has no CDATA). */
function expectBalancedXml(text: string): void {
  const body = text.replace(/^<\?xml[^?]*\?>/, '').replace(/<!--[\s\S]*?-->/g, '');
  const stack: string[] = [];
  for (const match of body.matchAll(/<(\/?)([A-Za-z_][\w.-]*)[^>]*?(\/?)>/g)) {
    const [, closing, name, selfClosing] = match;
    if (selfClosing) continue;
    if (closing) expect(stack.pop(), `</${name}>`).toBe(name);
    else stack.push(name!);
  }
  expect(stack).toEqual([]);
  expect(body.replace(/<[^>]*>/g, '')).not.toMatch(/[<>]/);
}
