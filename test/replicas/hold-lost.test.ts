// A holder whose hold ends under it while it runs: its lock session terminated (as a network cut or
// a DBA would) while orders go through it and its replica, or alone, or PostgreSQL stopped under
// it (one process, or `--workers 2`). It stops with one line saying why (exit 1), never node's
// print of an uncaught error, and a replica, when one runs, takes the sandbox over.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxControlClient } from '../../generated/sandbox-control/client.js';
import { binRunner, output, type Output } from '../support/bin-process.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { suitePostgres } from '../support/suite-postgres.js';
import { endHolderSession } from './support/holder-session.js';
import { replicaSet, v3Client, type ServeProcess } from './support/replica-set.js';

/** A line of a stack trace, as node prints an uncaught error. */
const stackLine = /^\s+at /m;

/** The one line a mock whose database went away prints as it stops. */
const databaseLost = /^exchange-api-kit serve: lost the sandbox database postgres:\/\/\S+: .+; stopped$/m;

/** Orders posted through each process in turn until `stop()`; `acked()` counts those answered 201. */
async function orderLoad(processes: ServeProcess[]): Promise<{ acked(): number; stop(): Promise<void> }> {
  const control = new SandboxControlClient({ baseUrl: processes[0]!.url });
  const limits = { rate_limit_per_minute: 100_000, quota_daily: 100_000_000, quota_monthly: 1_000_000_000 };
  const token = (await control.mintToken({ body: limits })).body.result.token;
  const route = (await v3Client(processes[0]!.url, token).listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!;
  let stopped = false;
  let acked = 0;
  const lane = async (n: number) => {
    for (let i = n; !stopped; i += 1) {
      const v3 = v3Client(processes[i % processes.length]!.url, token);
      const body = { route_id: route.id, amount: route.limits.min_give, email: `load${i}@example.com`, requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' } };
      const status = await v3.createOrder({ body }).then((answer) => answer.status, () => 0);
      if (status === 201) acked += 1;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const lanes = Promise.all([0, 1, 2, 3].map(lane));
  return {
    acked: () => acked,
    stop: async () => {
      stopped = true;
      await lanes;
    },
  };
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe.runIf(postgresAvailable())('a holder whose hold ends while it writes', () => {
  const postgres = suitePostgres();

  it('stops with one line (exit 1) when its lock session ends under a write load, and the replica takes over', async () => {
    const url = await postgres().createDatabase();
    const replicas = replicaSet(url);
    const holder = await replicas.start();
    const replica = await replicas.start();
    expect([holder.asReplica, replica.asReplica]).toEqual([false, true]);
    const holderOutput: Promise<Output> = output(holder.child);
    const load = await orderLoad([holder, replica]);
    try {
      await until(() => load.acked() >= 40);
      await endHolderSession(url);
      const { code, stderr } = await holderOutput;
      expect(code).toBe(1);
      expect(stderr).toMatch(/^exchange-api-kit serve: lost the hold on the sandbox of postgres:\/\/\S+: .*; stopped \(a replica on the database, if one runs, takes it over\)\n$/);
      expect(stderr).not.toMatch(stackLine);
      await replica.tookOver;
    } finally {
      await load.stop();
    }
  }, 30_000);

  it('says a replica takes over only if one runs, when a lone holder loses its hold', async () => {
    const url = await postgres().createDatabase();
    const holder = await replicaSet(url).start();
    const holderOutput = output(holder.child);
    await endHolderSession(url);
    const { code, stderr } = await holderOutput;
    expect(code).toBe(1);
    expect(stderr).toMatch(/^exchange-api-kit serve: lost the hold on the sandbox of postgres:\/\/\S+: terminating connection due to administrator command; stopped \(a replica on the database, if one runs, takes it over\)\n$/);
  }, 20_000);
});

describe.runIf(postgresAvailable())('PostgreSQL stopped under a running mock', () => {
  let server: PostgresServer | undefined;
  afterEach(() => server?.stop());

  it('stops the holder with one line (exit 1) while it writes', async () => {
    server = await startPostgres();
    const holder = await replicaSet(await server.createDatabase()).start();
    const holderOutput = output(holder.child);
    const load = await orderLoad([holder]);
    try {
      await until(() => load.acked() >= 20);
      server.shutDown();
      const { code, stderr } = await holderOutput;
      expect(code).toBe(1);
      expect(stderr).toMatch(databaseLost);
      expect(stderr).not.toMatch(stackLine);
    } finally {
      await load.stop();
    }
  }, 30_000);

  it('stops every worker of --workers 2 with one line each, and the primary exits 1', async () => {
    server = await startPostgres();
    const run = binRunner(mkdtempSync(join(tmpdir(), 'exchange-api-kit-workers-')));
    const primary = run(['serve', '--port', '0', '--log-level', 'silent', '--workers', '2', '--store', await server.createDatabase()]);
    const ran = output(primary);
    // Both workers listen: the holder's banner and the replica's.
    await output(primary, /try: curl[\s\S]*as a replica|as a replica[\s\S]*try: curl/);
    server.shutDown();
    const { code, stderr } = await ran;
    expect(code).toBe(1);
    expect(stderr).toMatch(databaseLost);
    expect(stderr).not.toMatch(stackLine);
  }, 30_000);
});
