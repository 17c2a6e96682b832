// The engines every store suite runs against: the memory engine, SQLite on a real file in a
// temporary folder, and a real PostgreSQL server the suite starts (test/support/postgres-server.ts).
// `open` makes a fresh store; `reopen` opens another connection to the same data (a restart, or
// another replica sharing it), where the engine has one; `place` names a fresh place for a sandbox
// without opening it (what a mock started as a process is given).
//
// Without PostgreSQL installed its engine is skipped with a loud warning, except where it must be
// there (.ci/run installs it and sets EXCHANGE_API_KIT_POSTGRES=required): there it fails the run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore } from '../../../mock-server/store/memory/memory-store.js';
import { openStore } from '../../../mock-server/store/open-store.js';
import type { SandboxStore } from '../../../mock-server/store/sandbox-store.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../../support/postgres-server.js';

export interface EngineUnderTest {
  name: string;
  /** A new, empty store; every store it made is closed and removed by `cleanUp`. */
  open(): Promise<SandboxStore>;
  /** The `--store` spec of a new, empty place (a file, a database), removed by `cleanUp`. */
  place(): Promise<string>;
  /** Another store over the same data as `store`, or undefined for an engine that keeps none. */
  reopen(store: SandboxStore): Promise<SandboxStore | undefined>;
  /** The store spec `--store` takes for the data of `store`. */
  spec(store: SandboxStore): string;
  cleanUp(): Promise<void>;
}

function memoryEngine(): EngineUnderTest {
  return {
    name: 'memory',
    open: async () => new MemoryStore(),
    place: async () => 'memory',
    reopen: async () => undefined,
    spec: () => 'memory',
    cleanUp: async () => {},
  };
}

function sqliteEngine(): EngineUnderTest {
  const opened: SandboxStore[] = [];
  let folder: string | undefined;
  let files = 0;
  const open = async (spec: string) => {
    const store = await openStore(spec);
    opened.push(store);
    return store;
  };
  const place = async () => {
    folder ??= mkdtempSync(join(tmpdir(), 'kit-store-'));
    files += 1;
    return `sqlite:${join(folder, `sandbox-${files}.db`)}`;
  };
  return {
    name: 'sqlite',
    open: async () => open(await place()),
    place,
    reopen: (store) => open(`sqlite:${store.location}`),
    spec: (store) => `sqlite:${store.location}`,
    cleanUp: async () => {
      for (const store of opened.splice(0)) await store.close();
      if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
      folder = undefined;
    },
  };
}

function postgresEngine(): EngineUnderTest {
  const opened: SandboxStore[] = [];
  const urls = new Map<SandboxStore, string>();
  let server: Promise<PostgresServer> | undefined;
  const open = async (url: string) => {
    const store = await openStore(url);
    opened.push(store);
    urls.set(store, url);
    return store;
  };
  const place = async () => {
    server ??= startPostgres();
    return (await server).createDatabase();
  };
  return {
    name: 'postgres',
    open: async () => open(await place()),
    place,
    reopen: (store) => open(urls.get(store)!),
    spec: (store) => urls.get(store)!,
    cleanUp: async () => {
      for (const store of opened.splice(0)) await store.close().catch(() => undefined);
      if (server !== undefined) (await server).stop();
      server = undefined;
    },
  };
}

function enginesHere(): (() => EngineUnderTest)[] {
  if (postgresAvailable()) return [memoryEngine, sqliteEngine, postgresEngine];
  const reason = 'PostgreSQL is not installed (apt-get install postgresql)';
  if (process.env.EXCHANGE_API_KIT_POSTGRES === 'required') throw new Error(`the postgres engine's tests are required but ${reason}`);
  console.warn(`\n${'!'.repeat(100)}\n!! SKIPPING the postgres engine: ${reason}.\n${'!'.repeat(100)}\n`);
  return [memoryEngine, sqliteEngine];
}

export const engines: readonly (() => EngineUnderTest)[] = enginesHere();
