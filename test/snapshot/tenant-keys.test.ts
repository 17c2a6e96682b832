// Two tenants' keys in a sandbox state document, over real HTTP. A document that gave two keys
// one id merged the tenants (idempotency records are kept per key id: the second tenant got the
// first one's webhook endpoint and its secret), and one that gave a key another key's client made
// the next minted key share that client. Both are refused with 422, the sandbox left as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxState, SandboxStateKey } from '../../generated/sandbox-control/types.js';
import { bearer, send } from '../mock-server/support/http.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { exportState, expectRefusedUntouched, loadState } from './support/state-documents.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: 61 });
  server.sandbox.stopDispatching();
});
afterAll(async () => {
  await server.close();
});

/** The document with `change` applied to its keys. */
function withKeys(state: SandboxState, change: (keys: SandboxStateKey[]) => SandboxStateKey[]): SandboxState {
  return { ...state, accounts: { ...state.accounts, keys: change(state.accounts.keys) } };
}

async function mintWebhooksKey(): Promise<{ id: number; token: string }> {
  const { result } = (await server.control.mintToken({ body: { scopes: ['webhooks:read', 'webhooks:write'] } })).body;
  return { id: result.key.id, token: result.token };
}

/** createWebhookEndpoint with the given Idempotency-Key: the answer's endpoint id and one-time secret. */
async function createEndpoint(token: string, idempotencyKey: string): Promise<{ status: number; replayed: string | null; id: string; secret: string }> {
  const response = await send(server.url, '/api/v3/private/webhooks', {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json', 'Idempotency-Key': idempotencyKey },
    body: JSON.stringify({ name: 'Orders', url: 'http://127.0.0.1:9/hook', events: ['api.test'] }),
  });
  const { id, secret } = (response.json as { result: { endpoint: { id: string; secret: string } } }).result.endpoint;
  return { status: response.status, replayed: response.headers.get('idempotent-replayed'), id, secret };
}

describe('a document whose two tenant keys share an id', () => {
  it('is refused, and the tenants keep apart: one Idempotency-Key sent by both makes two endpoints', async () => {
    await server.control.resetSandbox();
    const [a, b] = [await mintWebhooksKey(), await mintWebhooksKey()];
    const document = await exportState(server);
    const index = document.accounts.keys.findIndex((key) => key.id === b.id);
    const merged = withKeys(document, (keys) => keys.map((key) => (key.id === b.id ? { ...key, id: a.id } : key)));
    await expectRefusedUntouched(server, merged, `accounts.keys.${index}.id`);

    const fromA = await createEndpoint(a.token, 'tenant-keys-0001');
    const fromB = await createEndpoint(b.token, 'tenant-keys-0001');
    expect([fromA.status, fromB.status]).toEqual([201, 201]);
    expect(fromB.replayed).toBeNull();
    expect(fromB.id).not.toBe(fromA.id);
    expect(fromB.secret).not.toBe(fromA.secret);
  });
});

describe('a document with a key whose client is not its own', () => {
  it("is refused: the next key minted gets a client of its own, and the mock's export loads", async () => {
    await server.control.resetSandbox();
    const document = await exportState(server);
    const own = document.accounts.keys[0]!;
    const stray = { ...own, id: 2, token: 'eak_stray_key_of_another_client', client: { ...own.client, id: 3 } };
    await expectRefusedUntouched(server, withKeys(document, (keys) => [...keys, stray]), 'accounts.keys.1.client.id');

    const minted = (await server.control.mintToken()).body.result.key;
    expect(minted.id).toBe(2);
    const exported = await exportState(server);
    expect(exported.accounts.keys.map((key) => [key.id, key.client.id])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    await loadState(server, exported);
  });
});
