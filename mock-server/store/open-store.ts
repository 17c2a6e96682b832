// Opens the engine a store spec names: `memory` (the default), `sqlite:PATH` or `postgres://…`
// (also `postgresql://…`). Drivers load lazily: a user who never picks an engine needs none of
// its packages.
import { MemoryStore } from './memory/memory-store.js';
import type { SandboxStore } from './sandbox-store.js';
import { StoreOpenError } from './store-open-error.js';
import { withoutPassword } from './postgres/without-password.js';

export const storeSpecHelp = 'memory, sqlite:PATH or postgres://USER@HOST:PORT/DATABASE';

const sqliteSpec = /^sqlite:./;
const postgresSpec = /^postgres(ql)?:\/\/./;

/** Whether `spec` has the form of a store spec (the file or database is only opened by openStore). */
export function isStoreSpec(spec: string): boolean {
  return spec === 'memory' || sqliteSpec.test(spec) || postgresSpec.test(spec);
}

/** Whether processes can share the store of `spec`: only a database (memory and a SQLite file are one process's). */
export function isSharedStoreSpec(spec: string): boolean {
  return postgresSpec.test(spec);
}

/** `spec` as a message may show it: a PostgreSQL URL without its password. */
export function shownStoreSpec(spec: string): string {
  return postgresSpec.test(spec) ? withoutPassword(spec) : spec;
}

export async function openStore(spec: string): Promise<SandboxStore> {
  if (spec === 'memory') return new MemoryStore();
  if (sqliteSpec.test(spec)) {
    const { openSqliteStore } = await import('./sqlite/open-sqlite.js');
    return openSqliteStore(spec.slice('sqlite:'.length));
  }
  if (postgresSpec.test(spec)) {
    const { openPostgresStore } = await import('./postgres/open-postgres.js');
    return openPostgresStore(spec);
  }
  throw new StoreOpenError(`--store ${JSON.stringify(spec)} is not understood: use ${storeSpecHelp}`);
}
