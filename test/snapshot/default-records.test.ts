// The default key and site in a sandbox state document, over real HTTP: a load keeps the
// credentials of the mock it is loaded into (token and HMAC secret, the site's API key, secret and
// webhook secret), and everything else of their records (scopes, flags, last use, settings) is
// the document's, as importSandboxState says. A document without them is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import { bearer, send } from '../mock-server/support/http.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { exportState, expectRefusedUntouched, loadState } from './support/state-documents.js';

let source: TestServer;
let target: TestServer;
let document: SandboxState;
beforeAll(async () => {
  [source, target] = await Promise.all([startTestServer({ seed: 71 }), startTestServer({ seed: 72 })]);
  for (const server of [source, target]) server.sandbox.stopDispatching();
  await source.v3.privatePing();
  document = await exportState(source);
});
afterAll(async () => {
  await Promise.all([source.close(), target.close()]);
});

describe("a loaded document's default key and site", () => {
  it("are the document's records with the credentials of the mock loaded into", async () => {
    const [key, site] = [document.accounts.keys[0]!, document.accounts.sites[0]!];
    const restricted = { ...key, name: 'restricted', scopes: [], active: false, lastUsedAtMs: null, createdAtMs: key.createdAtMs - 60_000 };
    const moved = { ...site, name: 'Moved site', callbackUrl: 'http://127.0.0.1:9/callback', amlEnabled: false, webhookEvents: ['deposit.paid'] };
    const changed = { ...document, accounts: { keys: [restricted, ...document.accounts.keys.slice(1)], sites: [moved, ...document.accounts.sites.slice(1)] } };
    await target.v3.privatePing(); // the default key of the sandbox replaced was used
    const before = await exportState(target);
    await loadState(target, changed);

    expect((await send(target.url, '/api/v3/private/client', { headers: bearer(target.token) })).status).toBe(401);
    const after = await exportState(target);
    const [ownKey, ownSite] = [before.accounts.keys[0]!, before.accounts.sites[0]!];
    expect(after.accounts.keys[0]).toEqual({ ...restricted, token: ownKey.token, hmacSecret: ownKey.hmacSecret });
    expect(after.accounts.sites[0]).toEqual({ ...moved, apiKey: ownSite.apiKey, apiSecret: ownSite.apiSecret, webhookSecret: ownSite.webhookSecret });
    expect(after.accounts.keys[0]!.token).toBe(target.token);
  });

  it('are required: a document without one is refused', async () => {
    const { keys, sites } = document.accounts;
    await expectRefusedUntouched(target, { ...document, accounts: { keys: keys.slice(1), sites } }, 'accounts.keys');
    await expectRefusedUntouched(target, { ...document, accounts: { keys, sites: sites.slice(1) } }, 'accounts.sites');
  });
});
