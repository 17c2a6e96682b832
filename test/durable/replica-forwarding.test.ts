// A replica forwarding to the holder of a shared sandbox (mock-server/replica/), both in this
// process on a real PostgreSQL database: what a caller sends through the replica reaches the
// holder as it was sent (a path starting `//`, a body larger than the replica keeps, a body too
// large for its route, which gets the holder's 413 envelope), and the holder's peer port answers
// only the replicas, which prove themselves with its secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandby, type RunningStandby } from '../../mock-server/replica/standby.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { openStore } from '../../mock-server/store/open-store.js';
import type { SandboxStore } from '../../mock-server/store/sandbox-store.js';
import { expectContractBody } from '../mock-server/support/contract.js';
import { send } from '../mock-server/support/http.js';
import { durableEngines } from './support/durable-server.js';

const postgres = durableEngines().find((engine) => engine.name === 'postgres');

describe.runIf(postgres !== undefined)('a replica forwarding to the holder', () => {
  const stores: SandboxStore[] = [];
  let holder: RunningMockServer;
  let replica: RunningStandby;
  beforeAll(async () => {
    const spec = await postgres!.place();
    const [first, second] = [await openStore(spec), await openStore(spec)];
    stores.push(first, second);
    holder = await startMockServer({ store: first, seed: 11 });
    replica = await startStandby({ store: second, seed: 11 });
  });
  afterAll(async () => {
    // The replica's store first: closed after the holder's, it would get the hold it waits for
    // while it is being closed.
    await replica.close();
    await stores[1]!.close();
    await holder.close();
    await stores[0]!.close();
    await postgres!.cleanUp();
  });

  const v3 = (path: string, init: Parameters<typeof send>[2] = {}) =>
    send(replica.url, path, { ...init, headers: { Authorization: `Bearer ${holder.token}`, ...(init.headers ?? {}) } });

  it('answers what the holder answers, for a path that starts with two slashes too', async () => {
    const ping = await v3('/api/v3/private/ping');
    expect(expectContractBody('v3', 'ping', ping.status, ping.json)).toBe(true);
    const direct = await send(holder.url, '//api/v3/private/ping', { headers: { Authorization: `Bearer ${holder.token}` } });
    const forwarded = await v3('//api/v3/private/ping');
    expect(forwarded.status).toBe(direct.status);
  });

  it('streams a body larger than it keeps to the holder: a whole sandbox document is loaded through it', async () => {
    const exported = await send(holder.url, '/__mock/state');
    const document = (exported.json as { result: unknown }).result;
    // Padded past the 1 MiB a replica keeps (white space after the JSON text).
    const padded = JSON.stringify(document) + ' '.repeat(1024 * 1024 + 10);
    const loaded = await send(replica.url, '/__mock/state', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: padded });
    expect(expectContractBody('control', 'importSandboxState', loaded.status, loaded.json)).toBe(true);
    expect(loaded.status).toBe(200);
  });

  it("passes the holder's 413 envelope back for a body too large for its route", async () => {
    const tooLarge = await v3('/api/v3/private/webhooks', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: `{"name":"${'x'.repeat(2 * 1024 * 1024)}"}` });
    expect(tooLarge.status).toBe(413);
    expect((tooLarge.json as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it("refuses on the holder's peer port a request without its secret", async () => {
    const refused = await send(holder.peerUrl!, '/api/v3/private/ping', { headers: { Authorization: `Bearer ${holder.token}`, 'x-exchange-api-kit-replica': 'guess' } });
    expect([refused.status, refused.headers.get('x-exchange-api-kit-not-holder')]).toEqual([421, '1']);
  });
});
