// The sandbox control API over real HTTP through the generated SandboxControlClient: seeded
// determinism and reset, the virtual clock, minting keys and creating sites, switching the API
// off and guarding it with an admin token. Every body is checked against the control contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../generated/sandbox-control/client.js';
import { exchangeV3Routes } from '../../generated/exchange-v3/routes.js';
import { webhookValidators } from '../../generated/deposit-v1/validators.js';
import { expectContractBody, expectFamilyResponse } from './support/contract.js';
import { bearer, send } from './support/http.js';
import { startTestServer, type TestServer } from './support/server.js';
import { failure } from './support/failure.js';

const allScopes = [...new Set(exchangeV3Routes.flatMap((r) => (typeof r.scope === 'string' ? [r.scope] : [])))].sort();

/** An error answer of the control API: its status, code and contract body. */
function expectControlError(error: ApiError, status: number, code: string): void {
  expect(error.status, JSON.stringify(error.body)).toBe(status);
  expect(error.code).toBe(code);
  expectContractBody('control', error.operationId, status, error.body);
}

async function privatePing(server: TestServer, token: string) {
  const response = await send(server.url, '/api/v3/private/ping', { headers: bearer(token) });
  expectFamilyResponse('v3', response, 'private ping');
  return response;
}

async function mintSome(server: TestServer, count: number): Promise<{ token: string; hmac_secret: string }[]> {
  const minted = [];
  for (let i = 0; i < count; i += 1) {
    const response = await server.control.mintToken();
    expectContractBody('control', 'mintToken', response.status, response.body);
    minted.push({ token: response.body.result.token, hmac_secret: response.body.result.hmac_secret });
  }
  return minted;
}

async function createSomeSite(server: TestServer) {
  const response = await server.control.createSite();
  expectContractBody('control', 'createSite', response.status, response.body);
  const { site, api_secret, webhook_secret } = response.body.result;
  return { api_key: site.api_key, api_secret, webhook_secret };
}

describe('determinism and reset', () => {
  let first: TestServer;
  let second: TestServer;
  let other: TestServer;
  beforeAll(async () => {
    [first, second, other] = await Promise.all([startTestServer({ seed: 42 }), startTestServer({ seed: 42 }), startTestServer({ seed: 7 })]);
  });
  afterAll(async () => {
    await Promise.all([first.close(), second.close(), other.close()]);
  });

  it('two servers with the same seed have the same default credentials and mint identical tokens in the same order', async () => {
    expect(second.token).toBe(first.token);
    expect(second.site).toEqual(first.site);
    expect(other.token).not.toBe(first.token);
    const a = await mintSome(first, 3);
    const b = await mintSome(second, 3);
    expect(b).toEqual(a);
    expect(new Set(a.map((k) => k.token)).size).toBe(3);
    expect(await createSomeSite(second)).toEqual(await createSomeSite(first));
  });

  it('reset with a seed replays what a fresh server with that seed mints, and keeps the default credentials', async () => {
    const fresh = await startTestServer({ seed: 42 });
    try {
      const expectedKeys = await mintSome(fresh, 2);
      const expectedSite = await createSomeSite(fresh);

      const before = await mintSome(other, 1); // the seed-7 server has state of its own
      const reset = await other.control.resetSandbox({ body: { seed: 42 } });
      expectContractBody('control', 'resetSandbox', reset.status, reset.body);
      expect(reset.body.result.seed).toBe(42);

      expect(await mintSome(other, 2)).toEqual(expectedKeys);
      expect(await createSomeSite(other)).toEqual(expectedSite);

      // The default token survives a reset; a key minted before it does not.
      expect((await privatePing(other, other.token)).status).toBe(200);
      const gone = await privatePing(other, before[0]!.token);
      expect(gone.status).toBe(401);
      expect(gone.json).toMatchObject({ error: { code: 'invalid_token' } });
    } finally {
      await fresh.close();
    }
  });

  it('reset without a seed goes back to the seed the mock was started with, after a reset with another', async () => {
    const [reseeded, fresh] = await Promise.all([startTestServer({ seed: 7 }), startTestServer({ seed: 7 })]);
    try {
      expect((await reseeded.control.resetSandbox({ body: { seed: 42 } })).body.result.seed).toBe(42);
      expect((await reseeded.control.resetSandbox()).body.result.seed).toBe(7);
      expect(await mintSome(reseeded, 2)).toEqual(await mintSome(fresh, 2));
      await reseeded.control.resetSandbox({ body: { seed: 42 } });
      expect((await reseeded.control.resetSandbox({ body: {} })).body.result.seed).toBe(7);
    } finally {
      await Promise.all([reseeded.close(), fresh.close()]);
    }
  });
});

describe('the virtual clock', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: 5 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('reads, freezes, advances by seconds and by ISO duration, and resumes', async () => {
    const initial = await server.control.getClock();
    expectContractBody('control', 'getClock', 200, initial.body);
    expect(initial.body.result.frozen).toBe(false);

    const frozen = await server.control.freezeClock();
    expectContractBody('control', 'freezeClock', 200, frozen.body);
    expect(frozen.body.result.frozen).toBe(true);
    const at = Date.parse(frozen.body.result.now);
    expect((await server.control.getClock()).body.result.now).toBe(frozen.body.result.now);
    // Freezing a frozen clock changes nothing.
    expect((await server.control.freezeClock()).body.result.now).toBe(frozen.body.result.now);

    const bySeconds = await server.control.advanceClock({ body: { seconds: 1860 } });
    expectContractBody('control', 'advanceClock', 200, bySeconds.body);
    expect(Date.parse(bySeconds.body.result.now) - at).toBe(1_860_000);
    expect(bySeconds.body.result.frozen).toBe(true);

    const byDuration = await server.control.advanceClock({ body: { duration: 'PT31M' } });
    expect(Date.parse(byDuration.body.result.now) - at).toBe(2 * 1_860_000);

    const composite = await server.control.advanceClock({ body: { duration: 'P1DT2H0.5S' } });
    expect(Date.parse(composite.body.result.now) - at).toBe(2 * 1_860_000 + 86_400_000 + 7_200_000 + 500);

    const resumed = await server.control.resumeClock();
    expectContractBody('control', 'resumeClock', 200, resumed.body);
    expect(resumed.body.result.frozen).toBe(false);
    // Running again from the frozen instant, not back at real time.
    expect(Date.parse(resumed.body.result.now)).toBeGreaterThanOrEqual(Date.parse(composite.body.result.now));
    expect(resumed.body.result.offset_seconds).toBeGreaterThan(86_400);

    const reset = await server.control.resetSandbox();
    expect(reset.status).toBe(200);
    const afterReset = await server.control.getClock();
    expect(afterReset.body.result.frozen).toBe(false);
    expect(Math.abs(afterReset.body.result.offset_seconds)).toBeLessThan(3600);
  });

  it('sends the sandbox clock in every Date header, after an advance too', async () => {
    await server.control.freezeClock();
    const advanced = await server.control.advanceClock({ body: { duration: 'P2D' } });
    const now = new Date(advanced.body.result.now).toUTCString();
    for (const path of ['/api/v3/ping', '/v1/public/assets', '/__mock/clock', '/no/such/path']) {
      expect((await send(server.url, path)).headers.get('date'), path).toBe(now);
    }
    await server.control.resetSandbox();
  });

  it('accepts exactly one year', async () => {
    await server.control.freezeClock();
    const before = Date.parse((await server.control.getClock()).body.result.now);
    const year = await server.control.advanceClock({ body: { seconds: 31_536_000 } });
    expect(Date.parse(year.body.result.now) - before).toBe(31_536_000_000);
    await server.control.resetSandbox();
  });

  it.each([
    ['zero seconds', { seconds: 0 }],
    ['negative seconds', { seconds: -5 }],
    ['more than a year of seconds', { seconds: 31_536_001 }],
    ['a zero duration', { duration: 'PT0S' }],
    ['a duration over a year', { duration: 'P366D' }],
    ['two years', { duration: 'P2Y' }],
    ['not a duration', { duration: '31 minutes' }],
    ['both seconds and duration', { seconds: 1, duration: 'PT1S' }],
    ['neither', {}],
  ])('rejects %s with 422 validation_error and leaves the clock alone', async (_what, body) => {
    await server.control.freezeClock();
    const before = (await server.control.getClock()).body.result.now;
    const error = await failure(server.control.advanceClock({ body: body as { seconds: number } }));
    expectControlError(error, 422, 'validation_error');
    expect(Object.keys(error.details).length).toBeGreaterThan(0);
    expect((await server.control.getClock()).body.result.now).toBe(before);
    await server.control.resetSandbox();
  });
});

describe('minting tokens and creating sites', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: 9 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('mints a working key with every scope by default', async () => {
    const response = await server.control.mintToken({ body: {} });
    expect(response.status).toBe(201);
    expectContractBody('control', 'mintToken', 201, response.body);
    const { token, key } = response.body.result;
    expect([...key.scopes].sort()).toEqual(allScopes);
    expect(key).toMatchObject({ key_active: true, hmac_required: false, expires_at: null, ip_allowlist: [], client: { active: true, api_access_enabled: true } });
    expect((await privatePing(server, token)).status).toBe(200);
  });

  it('echoes every option it was given', async () => {
    const body = {
      name: 'ci-orders-reader',
      token: 'ci_orders_reader_0123456789',
      scopes: allScopes.slice(0, 2),
      client_active: false,
      api_access_enabled: false,
      key_active: false,
      expires_at: '2030-01-01T00:00:00.000Z',
      ip_allowlist: ['203.0.113.7', '198.51.100.0/24', '2001:db8::/32'],
      hmac_required: true,
      rate_limit_per_minute: 5,
      quota_daily: 50,
      quota_monthly: 500,
    };
    const response = await server.control.mintToken({ body });
    expectContractBody('control', 'mintToken', 201, response.body);
    const { token, hmac_secret, key } = response.body.result;
    expect(token).toBe(body.token);
    expect(hmac_secret.length).toBeGreaterThan(0);
    expect(key).toMatchObject({
      name: body.name,
      scopes: body.scopes,
      client: { active: false, api_access_enabled: false },
      key_active: false,
      expires_at: body.expires_at,
      ip_allowlist: body.ip_allowlist,
      hmac_required: true,
      rate_limit_per_minute: 5,
      quota_daily: 50,
      quota_monthly: 500,
    });
  });

  it('refuses an unknown scope with 422 and mints nothing', async () => {
    const error = await failure(server.control.mintToken({ body: { token: 'tok_unknown_scope_0001', scopes: ['orders:read', 'orders:teleport'] } }));
    expectControlError(error, 422, 'validation_error');
    expect(Object.keys(error.details).join()).toMatch(/scopes/);
    // Nothing was minted: the token is still free and unknown to v3.
    expect((await privatePing(server, 'tok_unknown_scope_0001')).status).toBe(401);
    expect((await server.control.mintToken({ body: { token: 'tok_unknown_scope_0001' } })).status).toBe(201);
  });

  it('refuses an IP allow-list entry that only looks like an address with 422', async () => {
    for (const entry of [':::::/64', '1:2:3:4:5:6:7:8:9/64', '300.1.1.1']) {
      const error = await failure(server.control.mintToken({ body: { ip_allowlist: ['203.0.113.7', entry] } }));
      expectControlError(error, 422, 'validation_error');
      expect(Object.keys(error.details).join(), entry).toMatch(/ip_allowlist/);
    }
  });

  it('refuses a fixed token already in use (minted or the default) with 422', async () => {
    await server.control.mintToken({ body: { token: 'tok_duplicate_000001' } });
    expectControlError(await failure(server.control.mintToken({ body: { token: 'tok_duplicate_000001' } })), 422, 'validation_error');
    expectControlError(await failure(server.control.mintToken({ body: { token: server.token } })), 422, 'validation_error');
  });

  it('creates a site with every option echoed, and refuses a duplicate API key', async () => {
    const body = {
      name: 'acme-checkout',
      api_key: 'pk_acme_checkout_0001',
      api_secret: 'sk_acme_checkout_0123456789abcdef0123',
      callback_url: 'http://localhost:9000/webhooks/deposits',
      aml_enabled: false,
      webhook_events: ['deposit.paid', 'deposit.expired'],
    };
    const response = await server.control.createSite({ body });
    expect(response.status).toBe(201);
    expectContractBody('control', 'createSite', 201, response.body);
    expect(response.body.result.site).toMatchObject({
      name: body.name, api_key: body.api_key, callback_url: body.callback_url, aml_enabled: false, webhook_events: body.webhook_events,
    });
    expect(response.body.result.api_secret).toBe(body.api_secret);
    expectControlError(await failure(server.control.createSite({ body: { api_key: body.api_key } })), 422, 'validation_error');
    expectControlError(await failure(server.control.createSite({ body: { api_key: server.site.apiKey } })), 422, 'validation_error');
  });

  it('creates a site subscribed to every deposit webhook event by default', async () => {
    const response = await server.control.createSite();
    const events = Object.keys(webhookValidators).filter((type) => type.startsWith('deposit.')).sort();
    expect([...response.body.result.site.webhook_events].sort()).toEqual(events);
    expect(response.body.result.site.aml_enabled).toBe(true);
  });

  it('refuses a webhook event type the v1 contract does not declare with 422', async () => {
    const error = await failure(server.control.createSite({ body: { webhook_events: ['deposit.teleported'] } }));
    expectControlError(error, 422, 'validation_error');
  });
});

describe('switching the control API off and guarding it', () => {
  it('control: false serves no /__mock routes (404) while v3 works', async () => {
    const server = await startTestServer({ seed: 1, control: false });
    try {
      for (const path of ['/__mock/clock', '/__mock/reset']) {
        const response = await send(server.url, path, { method: path.endsWith('reset') ? 'POST' : 'GET' });
        expect(response.status, path).toBe(404);
        expect(response.json).toMatchObject({ error: { code: 'not_found' } });
      }
      expect((await privatePing(server, server.token)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('an admin token is required in X-Mock-Admin-Token when configured', async () => {
    const adminToken = 'admin-token-0123456789';
    const server = await startTestServer({ seed: 1, adminToken });
    try {
      // The test server's control client sends the admin token.
      const ok = await server.control.getClock();
      expect(ok.status).toBe(200);
      for (const headers of [{}, { 'X-Mock-Admin-Token': 'wrong-token' }, { 'X-Mock-Admin-Token': `${adminToken}x` }] as Record<string, string>[]) {
        const response = await send(server.url, '/__mock/clock', { headers });
        expectFamilyResponse('control', response, 'control without the admin token');
        expect(response.status).toBe(401);
        expectContractBody('control', 'getClock', 401, response.json);
        expect(response.json).toMatchObject({ error: { code: 'unauthorized' } });
      }
      // Refused requests change nothing: a token minted without the admin token does not exist.
      const refused = await send(server.url, '/__mock/tokens', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: 'tok_refused_000000001' }) });
      expect(refused.status).toBe(401);
      expect((await server.control.mintToken({ body: { token: 'tok_refused_000000001' } })).status).toBe(201);
      // The admin token guards the control API only.
      expect((await privatePing(server, server.token)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
