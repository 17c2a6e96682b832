// Bytes a record costs a durable engine: a `sqlite:` file and, where PostgreSQL is installed, a
// database of a PostgreSQL server started for the run (test/support/postgres-server.ts), each
// holding v1 deposits or v3 orders with their order.created events, seeded through the domain
// services then written as one journal (test/bench/servers/seed-durable-store.ts). The figure is
// the growth of the file or the database (pg_database_size) between a small and a large count,
// divided by the records between them, so the empty sandbox's own bytes do not count. The memory
// engine's bytes per record are the scale benchmark's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresAvailable, startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { repoRoot, tsxNode } from './lib/processes.js';
import { round, type BenchResult } from './lib/report.js';

type Kind = 'deposits' | 'orders';

/** The store's size once `count` records of `kind` are written in it. */
function seededBytes(store: string, kind: Kind, count: number): number {
  const args = ['--max-old-space-size=8192', ...tsxNode, 'test/bench/servers/seed-durable-store.ts', store, kind, String(count)];
  const result = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`seeding ${count} ${kind} in ${store.split(':')[0]} failed:\n${result.stderr.slice(-2000)}`);
  return (JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { storeBytes: number }).storeBytes;
}

export async function storeBytes(options: { quick: boolean }): Promise<BenchResult> {
  const [small, large] = options.quick ? [100, 1_000] : [1_000, 100_000];
  const work = mkdtempSync(join(tmpdir(), 'exchange-api-kit-store-bytes-'));
  let postgres: PostgresServer | undefined;
  try {
    if (postgresAvailable()) postgres = await startPostgres();
    let files = 0;
    const engines: { name: string; newStore: () => Promise<string> }[] = [
      { name: 'sqlite', newStore: async () => `sqlite:${join(work, `${(files += 1)}.db`)}` },
      ...(postgres === undefined ? [] : [{ name: 'postgres', newStore: () => postgres!.createDatabase() }]),
    ];
    const rows: BenchResult['rows'] = [];
    for (const engine of engines) {
      for (const kind of ['deposits', 'orders'] as const) {
        const smallBytes = seededBytes(await engine.newStore(), kind, small);
        const largeBytes = seededBytes(await engine.newStore(), kind, large);
        rows.push({
          engine: engine.name,
          records: kind === 'orders' ? 'orders with their event' : kind,
          [`MB at ${large.toLocaleString('en')}`]: round(largeBytes / 1e6, 1),
          'bytes per record': round((largeBytes - smallBytes) / (large - small)),
        });
      }
    }
    return {
      name: 'store-bytes',
      rows,
      details: { counts: [small, large], ...(postgres === undefined ? { postgres: 'not installed (apt-get install postgresql): sqlite only' } : {}) },
    };
  } finally {
    postgres?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
