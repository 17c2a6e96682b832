// Sandbox snapshots over real HTTP: GET /__mock/state exports the whole sandbox, PUT /__mock/state
// puts another mock in exactly that state (keys, sites, limits, idempotency records, webhooks, the
// clock and the random streams), and a document that is of another version or does not fit
// together is refused with 422, the sandbox left exactly as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import { expectContractBody } from '../mock-server/support/contract.js';
import { bearer, send } from '../mock-server/support/http.js';
import { exportState, expectRefusedUntouched, putState } from './support/state-documents.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';

/** The document without the instant it was taken at (two exports of one state differ only there). */
function withoutTakenAt(state: SandboxState): Omit<SandboxState, 'taken_at'> {
  const { taken_at: _takenAt, ...rest } = state;
  return rest;
}

/**
 * What a load carries over: the document but for its instant and the credentials of the default
 * key and site (id 1), which are the mock's loaded into.
 */
function carriedOver(state: SandboxState): Omit<SandboxState, 'taken_at'> {
  const { accounts, ...rest } = withoutTakenAt(state);
  const keys = accounts.keys.map((key) => (key.id === 1 ? { ...key, token: '', hmacSecret: '' } : key));
  const sites = accounts.sites.map((site) => (site.id === 1 ? { ...site, apiKey: '', apiSecret: '', webhookSecret: '' } : site));
  return { ...rest, accounts: { keys, sites } };
}

describe('sandbox snapshots', () => {
  let source: TestServer;
  let target: TestServer;
  let exported: SandboxState;
  let minted: { token: string };
  const idempotencyKey = 'snapshot-endpoint-0001';
  let createdEndpoint: { status: number; body: string };

  beforeAll(async () => {
    [source, target] = await Promise.all([startTestServer({ seed: 42 }), startTestServer({ seed: 7 })]);
    for (const server of [source, target]) server.sandbox.stopDispatching();
    await source.control.freezeClock();
    await source.control.advanceClock({ body: { duration: 'PT2H' } });
    minted = (await source.control.mintToken({ body: { scopes: ['webhooks:read', 'webhooks:write'] } })).body.result;
    await source.control.createSite({ body: { name: 'Second site' } });
    const created = await send(source.url, '/api/v3/private/webhooks', {
      method: 'POST',
      headers: { ...bearer(minted.token), 'content-type': 'application/json', 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify({ name: 'Orders', url: 'http://127.0.0.1:9/hook', events: ['api.test'] }),
    });
    createdEndpoint = { status: created.status, body: created.text };
    for (let i = 0; i < 3; i += 1) await send(source.url, '/api/v3/private/ping', { headers: bearer(minted.token) });
    exported = await exportState(source);
    const loaded = await putState(target, exported);
    expect(loaded.status, loaded.text).toBe(200);
    expectContractBody('control', 'importSandboxState', loaded.status, loaded.json);
  });
  afterAll(async () => {
    await Promise.all([source.close(), target.close()]);
  });

  it('exports a document of the contract, and a loaded mock exports the same document', async () => {
    expect(createdEndpoint.status).toBe(201);
    expect(exported).toMatchObject({ format: 'exchange-api-kit/sandbox-state', version: 1, seed: 42 });
    expect(exported.accounts.keys.map((key) => key.token)).toContain(minted.token);
    expect(exported.webhooks.endpoints).toHaveLength(1);
    expect(exported.limits.idempotency).toHaveLength(1);
    expect(exported.limits.meters.length).toBeGreaterThan(0);
    expect(carriedOver(await exportState(target))).toEqual(carriedOver(exported));
  });

  it('keeps the clock frozen where it stood', async () => {
    const clock = (await target.control.getClock()).body.result;
    expect(clock.frozen).toBe(true);
    expect(clock.now).toBe(exported.taken_at);
  });

  it('answers a loaded key, and replays its idempotent request instead of running it again', async () => {
    const client = new ExchangeV3Client({ baseUrl: target.url, token: minted.token, retry: false });
    expect((await client.privatePing()).status).toBe(200);
    const repeated = await send(target.url, '/api/v3/private/webhooks', {
      method: 'POST',
      headers: { ...bearer(minted.token), 'content-type': 'application/json', 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify({ name: 'Orders', url: 'http://127.0.0.1:9/hook', events: ['api.test'] }),
    });
    expect(repeated.status).toBe(201);
    expect(repeated.headers.get('idempotent-replayed')).toBe('true');
    // The same endpoint, secret included (only meta, the request's own, differs).
    expect((repeated.json as { result: unknown }).result).toEqual((JSON.parse(createdEndpoint.body) as { result: unknown }).result);
    expect((await client.listWebhookEndpoints()).body.result.endpoints).toHaveLength(1);
  });

  it('continues the random streams: the next key minted on both mocks is the same', async () => {
    const [a, b] = await Promise.all([source.control.mintToken(), target.control.mintToken()]);
    expect(b.body.result.token).toBe(a.body.result.token);
    expect(b.body.result.key.id).toBe(a.body.result.key.id);
  });

  it('keeps the default credentials of the mock it is loaded into', async () => {
    expect((await target.v3.privatePing()).status).toBe(200);
    expect((await send(target.url, '/api/v3/private/ping', { headers: bearer(source.token) })).status).toBe(401);
  });
});

describe('a document that cannot be loaded', () => {
  let source: TestServer;
  let target: TestServer;
  let good: SandboxState;
  beforeAll(async () => {
    [source, target] = await Promise.all([startTestServer({ seed: 3 }), startTestServer({ seed: 4 })]);
    for (const server of [source, target]) server.sandbox.stopDispatching();
    await source.control.mintToken();
    good = await exportState(source);
    await target.control.mintToken();
    await target.control.freezeClock();
  });
  afterAll(async () => {
    await Promise.all([source.close(), target.close()]);
  });

  it('refuses another version', async () => {
    await expectRefusedUntouched(target, { ...good, version: 2 }, 'version');
  });

  it('refuses a document cut short', async () => {
    const { webhooks: _cut, ...rest } = good;
    await expectRefusedUntouched(target, rest, 'webhooks');
  });

  it('refuses records that do not fit together, naming where', async () => {
    const delivery = {
      id: 'dlv_orphan',
      clientId: '1',
      eventId: 'evt_missing',
      eventType: 'api.test',
      endpointId: 'we_missing',
      endpointUrl: 'http://127.0.0.1:9/hook',
      targeted: false,
      status: 'pending',
      attempts: [],
      maxAttempts: 1,
      nextAttemptAtMs: null,
      deliveredAtMs: null,
      createdAtMs: 0,
      updatedAtMs: 0,
    };
    await expectRefusedUntouched(target, { ...good, webhooks: { ...good.webhooks, deliveries: [delivery] } }, 'webhooks.deliveries.0.eventId');
  });

  it.each([
    ['the frozen clock', (doc: SandboxState) => ({ ...doc, clock: { ...doc.clock, frozen_at_ms: 9e15 } }), 'clock.frozen_at_ms'],
    ["the clock's offset", (doc: SandboxState) => ({ ...doc, clock: { ...doc.clock, offset_ms: 9e15 } }), 'clock.offset_ms'],
    ["a key's creation", (doc: SandboxState) => ({ ...doc, accounts: { ...doc.accounts, keys: doc.accounts.keys.map((key) => ({ ...key, createdAtMs: 9e15 })) } }), 'accounts.keys.0.createdAtMs'],
  ])('refuses an instant past what a date-time can show: %s', async (_what, change, where) => {
    // Such an instant once loaded, then every answer showing it failed and the process ended.
    await expectRefusedUntouched(target, change(good), where);
    expect((await target.v3.privatePing()).status).toBe(200);
  });

  it('refuses a site subscribed to an event type the v1 contract does not have', async () => {
    const site = { ...good.accounts.sites[0]!, id: 9, apiKey: 'site_unknown_event', webhookEvents: ['deposit.paid', 'deposit.teleported'] };
    await expectRefusedUntouched(target, { ...good, accounts: { ...good.accounts, sites: [...good.accounts.sites, site] } }, 'accounts.sites.1.webhookEvents.1');
  });

  it('refuses a status its machine does not have', async () => {
    const key = good.accounts.keys.at(-1)!;
    const endpoint = {
      id: 'we_1', clientId: String(key.client.id), name: 'x', url: 'http://127.0.0.1:9/hook', events: ['api.test'], status: 'sleeping', secret: 's', secretFingerprint: 'f',
      failureCount: 0, failedDeliveries: 0, mirrorsSite: false, lastDeliveryAtMs: null, lastSuccessAtMs: null, lastFailureAtMs: null, createdAtMs: 0, updatedAtMs: 0,
    };
    await expectRefusedUntouched(target, { ...good, webhooks: { ...good.webhooks, endpoints: [endpoint] } }, 'webhooks.endpoints.0.status');
  });
});

describe('a refused load of a mock whose default key was used', () => {
  let source: TestServer;
  let target: TestServer;
  beforeAll(async () => {
    [source, target] = await Promise.all([startTestServer({ seed: 5 }), startTestServer({ seed: 6 })]);
    for (const server of [source, target]) server.sandbox.stopDispatching();
  });
  afterAll(async () => {
    await Promise.all([source.close(), target.close()]);
  });

  it('leaves the default key as it was, last use included', async () => {
    await target.v3.privatePing();
    await source.control.createSite();
    const before = withoutTakenAt(await exportState(target));
    expect(before.accounts.keys[0]!.lastUsedAtMs).not.toBeNull();
    // Valid against the contract, refused once its records are read: a site twice.
    const document = await exportState(source);
    const twice = { ...document, accounts: { ...document.accounts, sites: [...document.accounts.sites, document.accounts.sites.at(-1)!] } };
    const refused = await putState(target, twice);
    expect(refused.status, refused.text).toBe(422);
    expect(withoutTakenAt(await exportState(target))).toEqual(before);
  });
});
