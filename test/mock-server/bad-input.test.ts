// Property tests: random bad input to EVERY operation of the v3, v1 and control contracts
// (from the generated route tables) never yields a 5xx, always yields a JSON body in the family's format with a code of the family's catalog (or a
// 2xx), never crashes the server, never pollutes Object.prototype; rejected control requests
// leave the state unchanged. Bounded: MOCK_FUZZ_RUNS runs per operation (default 25).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badRequests, checkAnswer, sendAs, weirdBody } from './support/bad-input.js';
import { expectFamilyResponse, families, type FamilyName } from './support/contract.js';
import { bearer, send } from './support/http.js';
import { startTestServer, type TestServer } from './support/server.js';

const numRuns = Number(process.env.MOCK_FUZZ_RUNS ?? 25);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: 13 });
});
afterAll(async () => {
  await server.close();
});

async function expectAlive(): Promise<void> {
  const ping = await send(server.url, `${families.v3.basePath}/ping`);
  expect(ping.status).toBe(200);
  expect(Object.prototype).not.toHaveProperty('polluted');
}

// Control operations run last: they reset, freeze and advance the sandbox.
const order: FamilyName[] = ['v3', 'v1', 'control'];

describe.each(order)('random bad input to every %s operation', (family) => {
  beforeAll(async () => {
    await server.control.resetSandbox();
  });

  it.each(families[family].routes.map((route) => [route.operationId, route] as const))('%s', async (_operationId, route) => {
    // A fresh rate-limit window for the default key (600 a minute by the contract).
    if (family === 'v3') await server.control.advanceClock({ body: { seconds: 61 } });
    await fc.assert(
      fc.asyncProperty(badRequests(family, route), fc.boolean(), async (request, signV1) => {
        const response = await sendAs(server, family, request, signV1);
        checkAnswer(family, route, request, response);
      }),
      { numRuns },
    );
    await expectAlive();
  });
});

describe('rejected control requests change nothing', () => {
  let counter = 0;
  const freshToken = () => `tok_property_${String((counter += 1)).padStart(8, '0')}`;

  // Each makes a mintToken body invalid however the rest of it looks.
  const invalidMint = fc.oneof(
    fc.constant({ scopes: ['no:such:scope'] }),
    fc.constant({ unknown_field_xyz: true }),
    fc.constant({ rate_limit_per_minute: 0 }),
    fc.constant({ name: '' }),
    fc.constant({ expires_at: 'yesterday' }),
    fc.constant({ ip_allowlist: ['not-an-ip'] }),
    fc.constant({ ip_allowlist: [':::::/64'] }),
    fc.record({ hmac_required: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) }),
  );
  const extras = fc.record(
    { name: fc.string({ minLength: 1, maxLength: 64 }), key_active: fc.boolean(), hmac_required: fc.boolean(), quota_daily: fc.integer({ min: 1, max: 1000 }) },
    { requiredKeys: [] },
  );

  it('a rejected mintToken creates no key: its fixed token can still be minted afterwards', async () => {
    await fc.assert(
      fc.asyncProperty(extras, invalidMint, async (extra, invalid) => {
        const token = freshToken();
        const body = JSON.stringify({ ...extra, token, ...invalid });
        const rejected = await send(server.url, '/__mock/tokens', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
        expectFamilyResponse('control', rejected, body);
        expect(rejected.status, body).toBe(422);
        const v3 = await send(server.url, `${families.v3.basePath}/private/ping`, { headers: bearer(token) });
        expect(v3.status).toBe(401);
        expect((await server.control.mintToken({ body: { token } })).status).toBe(201);
      }),
      { numRuns },
    );
  });

  it('a malformed or mistyped control body changes neither keys nor sites nor the clock', async () => {
    await server.control.resetSandbox();
    await server.control.freezeClock();
    let clockBefore = (await server.control.getClock()).body.result.now;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/tokens', '/sites', '/reset', '/clock/advance'), weirdBody, fc.constantFrom('application/json', 'text/plain'), async (path, body, contentType) => {
        const token = freshToken();
        const siteKey = `site_${token}`;
        // Put the fixed token and key into the body only where it parses as an object.
        let sent = body;
        try {
          const parsed: unknown = JSON.parse(body);
          if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
            sent = JSON.stringify({ ...parsed, ...(path === '/tokens' ? { token } : path === '/sites' ? { api_key: siteKey } : {}) });
          }
        } catch {
          // malformed: sent as is
        }
        const response = await send(server.url, `/__mock${path}`, { method: 'POST', headers: { 'Content-Type': contentType }, body: sent });
        expect(response.status < 500, `${path} ${sent.slice(0, 200)} → ${response.status} ${response.text.slice(0, 300)}`).toBe(true);
        expectFamilyResponse('control', response, `${path} ${sent.slice(0, 200)}`);
        if (response.status >= 400) {
          // Nothing was created under the fixed token or key, and the clock did not move.
          expect((await server.control.mintToken({ body: { token } })).status).toBe(201);
          expect((await server.control.createSite({ body: { api_key: siteKey } })).status).toBe(201);
          expect((await server.control.getClock()).body.result.now).toBe(clockBefore);
        } else {
          // A valid body slipped through (e.g. `{}`): compare from the new state on.
          clockBefore = (await server.control.freezeClock()).body.result.now;
        }
      }),
      { numRuns },
    );
    await server.control.resetSandbox();
  });
});
