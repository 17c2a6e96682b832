// The request log: one JSON line per request (method, path, status, ms, request id), and no
// secret in it: not the bearer token, not an HMAC signature or secret, not a site's API secret,
// not a webhook secret shown once at creation, not the admin token, not a query string.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHmacSigner, DepositV1Client, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { ExchangeV3Client, exchangeV3SignatureScheme } from '../../generated/exchange-v3/client.js';
import { SandboxControlClient } from '../../generated/sandbox-control/client.js';
import { sandboxControlSecuritySchemes } from '../../generated/sandbox-control/contract-data.js';
import { createLogger } from '../../mock-server/log.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';

const adminToken = 'admin_token_for_the_log_test_0123';
const lines: string[] = [];
// Every header value the clients sent, to look for in the log afterwards.
const sentHeaders: Headers[] = [];
const recordingFetch: typeof fetch = async (input, init) => {
  sentHeaders.push(new Headers(init?.headers));
  return fetch(input, init);
};

let mock: RunningMockServer;
beforeAll(async () => {
  const logger = await createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
  mock = await startMockServer({ port: 0, seed: 11, adminToken, logger });
});
afterAll(() => mock.close());

describe('the request log', () => {
  it('has one line per request with its fields, and no token, signature or secret', async () => {
    const noRetry = { retry: false, fetch: recordingFetch } as const;
    const control = new SandboxControlClient({ baseUrl: mock.url, headers: { [sandboxControlSecuritySchemes.adminToken.name]: adminToken }, ...noRetry });
    const now = () => mock.sandbox.clock.nowMs();

    // v3: the default token, then a key that must sign (token + HMAC signature).
    const v3 = new ExchangeV3Client({ baseUrl: mock.url, token: mock.token, ...noRetry });
    await v3.ping();
    const minted = (await control.mintToken({ body: { hmac_required: true } })).body.result;
    const signed = new ExchangeV3Client({
      baseUrl: mock.url,
      token: minted.token,
      signer: createHmacSigner(exchangeV3SignatureScheme, { secret: minted.hmac_secret }, { now }),
      ...noRetry,
    });
    await signed.ping();
    // A webhook endpoint: its secret is in the response, once.
    const endpoint = (await v3.createWebhookEndpoint({ body: { name: 'Log test', url: `${mock.url}/__mock/webhooks/inbox`, events: ['api.test'] } })).body;
    // v1: a new site (API secret and webhook secret in the response), then a signed request.
    const site = (await control.createSite({ body: {} })).body.result;
    const v1 = new DepositV1Client({
      baseUrl: mock.url,
      signer: createHmacSigner(depositV1SignatureScheme, { key: site.site.api_key, secret: site.api_secret }, { now }),
      ...noRetry,
    });
    await v1.listAssets();
    // A secret in a query string.
    await fetch(`${mock.url}/api/v3/ping?token=${mock.token}&secret=${site.api_secret}`);

    // A line is written when the response is finished, which may be just after the client has it.
    await vi.waitFor(() => expect(lines).toHaveLength(7));
    const endpointSecret = JSON.stringify(endpoint).match(/"secret":"([^"]+)"/)?.[1];
    expect(endpointSecret).toBeDefined();
    const secrets = [
      mock.token,
      minted.token,
      minted.hmac_secret,
      endpointSecret,
      site.api_secret,
      site.webhook_secret,
      adminToken,
      ...sentHeaders.flatMap((headers) => [
        headers.get('authorization'),
        headers.get(exchangeV3SignatureScheme.headers.signature),
        headers.get(depositV1SignatureScheme.headers.signature),
      ]),
    ].filter((value): value is string => typeof value === 'string' && value.length > 0);
    // The signed requests did send their signatures.
    for (const scheme of [exchangeV3SignatureScheme, depositV1SignatureScheme]) {
      expect(sentHeaders.some((headers) => headers.has(scheme.headers.signature))).toBe(true);
    }
    const log = lines.join('');
    for (const secret of secrets) expect(log).not.toContain(secret);

    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toHaveLength(7);
    for (const entry of entries) {
      expect(entry).toMatchObject({ method: expect.stringMatching(/^(GET|POST)$/), path: expect.stringMatching(/^\//), status: expect.any(Number), ms: expect.any(Number) });
      expect(entry.reqId).toMatch(/^req_/);
      expect(entry.path).not.toContain('?');
    }
    expect(entries.map((e) => `${e.method} ${e.path} ${e.status}`)).toContain('POST /__mock/sites 201');
  });

  it('the request id of a line is the one the response carried', async () => {
    const before = lines.length;
    const response = await fetch(`${mock.url}/api/v3/ping`);
    await vi.waitFor(() => expect(lines).toHaveLength(before + 1));
    const entry = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    expect(entry).toMatchObject({ method: 'GET', path: '/api/v3/ping', status: 200, reqId: response.headers.get('x-request-id') });
  });
});

describe('the log level', () => {
  it('at warn, answered requests are not logged', async () => {
    const quiet: string[] = [];
    const logger = await createLogger({ level: 'warn', destination: { write: (line: string) => void quiet.push(line) } });
    const server = await startMockServer({ port: 0, logger });
    try {
      expect((await fetch(`${server.url}/api/v3/ping`)).status).toBe(200);
      expect((await fetch(`${server.url}/api/v3/nope`)).status).toBe(404);
    } finally {
      await server.close();
    }
    expect(quiet).toEqual([]);
  });
});
