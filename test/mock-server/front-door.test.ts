// The front door (mock-server/http/front-door.ts) hands v3 and v1 requests to their family's
// chain without express's router, and everything else to the express app. Over real HTTP: the
// prefixes match as express mount paths do, each family keeps its format for answers and
// failures, and what is not an API family still reaches /docs and the control API.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositV1Routes } from '../../generated/deposit-v1/routes.js';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { sandboxControlRoutes, sandboxControlRoutesBasePath } from '../../generated/sandbox-control/routes.js';
import { createApp } from '../../mock-server/app.js';
import { errorCodeOf, expectFamilyResponse, isRecord } from './support/contract.js';
import { bearer, send } from './support/http.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: 5 });
});
afterAll(() => server.close());

const v3Path = (operationId: string) => `${exchangeV3RoutesBasePath}${exchangeV3Routes.find((r) => r.operationId === operationId)!.path}`;
const ping = v3Path('ping');

describe('the front door', () => {
  it('takes a v3 prefix in any case, as an express mount path does', async () => {
    const lower = await send(server.url, ping);
    const upper = await send(server.url, ping.replace(exchangeV3RoutesBasePath, exchangeV3RoutesBasePath.toUpperCase()));
    expect(lower.status).toBe(200);
    expect(upper.status).toBe(200);
    expectFamilyResponse('v3', upper, 'upper-case prefix');
    expect(isRecord(upper.json) && upper.json.result).toEqual(isRecord(lower.json) && lower.json.result);
  });

  it('answers the bare prefix, with or without a query, and a longer look-alike with a v3 404', async () => {
    for (const path of [exchangeV3RoutesBasePath, `${exchangeV3RoutesBasePath}/`, `${exchangeV3RoutesBasePath}?page=1`, ping.replace(exchangeV3RoutesBasePath, `${exchangeV3RoutesBasePath}x`)]) {
      const response = await send(server.url, path);
      expectFamilyResponse('v3', response, path);
      expect(response.status, path).toBe(404);
      expect(errorCodeOf(response.json), path).toBe('not_found');
    }
  });

  it('answers a path parameter that is not valid percent-encoding with 400 in the family format, and keeps serving', async () => {
    const route = exchangeV3Routes.find((r) => r.operationId === 'getRoute')!;
    const path = `${exchangeV3RoutesBasePath}${route.path.replace('{route}', '%E0%A4%A')}`;
    const response = await send(server.url, path, { headers: bearer(server.token) });
    expectFamilyResponse('v3', response, path);
    expect(response.status).toBe(400);
    expect(errorCodeOf(response.json)).toBe('bad_request');
    expect((await send(server.url, ping)).status).toBe(200);
  });

  it('gives v1 paths in full to the v1 family: its routes answer and its unknown paths get the v1 404', async () => {
    const listAssets = depositV1Routes.find((r) => r.operationId === 'listAssets')!;
    const assets = await server.v1.listAssets();
    expect(assets.status).toBe(200);
    const unknown = `${listAssets.path}/no-such-thing/deeper`;
    const response = await send(server.url, unknown);
    expectFamilyResponse('v1', response, unknown);
    expect(response.status).toBe(404);
    expect(errorCodeOf(response.json)).toBe('NOT_FOUND');
  });

  it('leaves the control API, /docs and unknown roots to the express app', async () => {
    const getClock = sandboxControlRoutes.find((r) => r.operationId === 'getClock')!;
    const clock = await send(server.url, `${sandboxControlRoutesBasePath}${getClock.path}`);
    expectFamilyResponse('control', clock, 'getClock');
    expect(clock.status).toBe(200);
    const docs = await fetch(`${server.url}/docs/exchange-v3`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    const unknown = await send(server.url, '/no-such-root');
    expectFamilyResponse('v3', unknown, '/no-such-root');
    expect(unknown.status).toBe(404);
  });

  it('serves on a plain node:http server too, whose requests are not born with express prototypes', async () => {
    const { listener, sandbox } = createApp({ seed: 5 });
    await sandbox.resume();
    const plain = createServer(listener).listen(0, '127.0.0.1');
    await new Promise((resolve) => plain.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
      const authenticated = await send(url, v3Path('privatePing'), { headers: bearer(sandbox.defaultKey.token) });
      expectFamilyResponse('v3', authenticated, 'privatePing');
      expect(authenticated.status).toBe(200);
      const docs = await fetch(`${url}/docs/exchange-v3`);
      expect(docs.status).toBe(200);
    } finally {
      plain.closeAllConnections();
      await new Promise((resolve) => plain.close(resolve));
    }
  });
});
