// A replica's forwarding (mock-server/replica/forward-to-holder.ts) to a holder that is alive but
// wedged: a real `serve` holding the sandbox on a real PostgreSQL, stopped with SIGSTOP, so its
// kernel still accepts the forwarded request and nothing answers it. The forwarding is built here
// on a real store's holding, as a replica builds it, with a wait of 2 s rather than its 30 s, so
// the replica gives up on the holder within the test: it closes the caller's connection, or sends
// a GET to the process that took the sandbox over. An answer that begins late by design (an
// injected latency fault longer than the wait) still comes through from a holder that is alive.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxControlClient } from '../../generated/sandbox-control/client.js';
import { forwardToHolder } from '../../mock-server/replica/forward-to-holder.js';
import { openStore } from '../../mock-server/store/open-store.js';
import { postgresAvailable } from '../support/postgres-server.js';
import { suitePostgres } from '../support/suite-postgres.js';
import { call } from './support/call.js';
import { endHolderSession } from './support/holder-session.js';
import { replicaSet, type ServeProcess } from './support/replica-set.js';

const waitMs = 2_000;

/** Far past the wait: without a bound, the replica waits for good and this is what a call gives. */
const givenUpMs = 10 * waitMs;

function answered(answer: Promise<string>): Promise<string> {
  const waited = new Promise<string>((resolve) => setTimeout(() => resolve(`no answer in ${givenUpMs} ms`), givenUpMs).unref());
  return Promise.race([answer, waited]);
}

const cleanUps: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
});

/** A replica's forwarding on the database at `url`, listening on a port of its own. */
async function replicaOn(url: string): Promise<string> {
  const store = await openStore(url);
  const holding = store.journal?.holding;
  if (holding === undefined) throw new Error(`${url} is not a store replicas share`);
  const forwarding = forwardToHolder(holding, { trustProxy: [], waitMs, keptBodyBytes: 1024 });
  const server = createServer(forwarding.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanUps.push(async () => {
    server.close();
    server.closeAllConnections();
    forwarding.close();
    await store.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops the holder; it is continued after the test (binRunner then kills it). */
function wedge(holder: ServeProcess): void {
  holder.child.kill('SIGSTOP');
  cleanUps.push(async () => void holder.child.kill('SIGCONT'));
}

const advance = JSON.stringify({ seconds: 60 });

describe.runIf(postgresAvailable())('a replica whose holder is wedged (SIGSTOP)', () => {
  const postgres = suitePostgres();

  it('closes the connection of a POST and of a GET unanswered once the holder answered nothing for the wait', async () => {
    const url = await postgres().createDatabase();
    const holder = await replicaSet(url).start();
    const replica = await replicaOn(url);
    // The replica knows the holder, and keeps a connection to it open.
    expect(await call(replica, 'GET', '/__mock/clock')).toMatch(/^200 /);
    wedge(holder);
    expect(await answered(call(replica, 'POST', '/__mock/clock/advance', advance))).toBe('closed');
    // No other process holds the sandbox: a GET has nowhere else to go.
    expect(await answered(call(replica, 'GET', '/__mock/clock'))).toBe('closed');
  }, 60_000);

  it('sends a GET to the process that took the sandbox over, and the next POST there', async () => {
    const url = await postgres().createDatabase();
    const replicas = replicaSet(url);
    const holder = await replicas.start();
    const standby = await replicas.start();
    // Two replicas that know the wedged holder, one for the GET and one for the POSTs.
    const [forGet, forPost] = [await replicaOn(url), await replicaOn(url)];
    for (const replica of [forGet, forPost]) expect(await call(replica, 'GET', '/__mock/clock')).toMatch(/^200 /);
    wedge(holder);
    await endHolderSession(url);
    await standby.tookOver;
    // Each still sends to the holder it knows, which takes the request and never answers.
    expect(await answered(call(forGet, 'GET', '/__mock/clock'))).toMatch(/^200 /);
    // A POST the wedged holder took may yet be carried out should it resume: never sent twice.
    expect(await answered(call(forPost, 'POST', '/__mock/clock/advance', advance))).toBe('closed');
    // The replica asks where the holder is before the next one.
    expect(await answered(call(forPost, 'POST', '/__mock/clock/advance', advance))).toMatch(/^200 /);
  }, 60_000);

  it('passes on an answer that begins later than the wait from a holder that is alive', async () => {
    const url = await postgres().createDatabase();
    const holder = await replicaSet(url).start();
    const replica = await replicaOn(url);
    const control = new SandboxControlClient({ baseUrl: holder.url });
    expect((await control.injectFault({ body: { operation: 'ping', latency_ms: 3 * waitMs, times: 1 } })).status).toBe(201);
    expect(await answered(call(replica, 'GET', '/api/v3/ping'))).toMatch(/^200 /);
    // The fault acted on that call (used up, it is gone).
    expect((await control.listFaults({})).body.result.faults).toEqual([]);
  }, 60_000);
});
