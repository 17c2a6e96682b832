// Opens the engine a store spec names: `memory` (the default), `sqlite:PATH` or `postgres://…`
// (also `postgresql://…`). Drivers load lazily: a user who never picks an engine needs none of
// its packages.
import { MemoryStore } from './memory/memory-store.js';
import type { SandboxStore } from './sandbox-store.js';
import { StoreOpenError } from './store-open-error.js';

export const storeSpecHelp = 'memory, sqlite:PATH or postgres://USER@HOST:PORT/DATABASE';

export async function openStore(spec: string): Promise<SandboxStore> {
  if (spec === 'memory') return new MemoryStore();
  if (spec.startsWith('sqlite:') && spec.length > 'sqlite:'.length) {
    const { openSqliteStore } = await import('./sqlite/open-sqlite.js');
    return openSqliteStore(spec.slice('sqlite:'.length));
  }
  if (/^postgres(ql)?:\/\/./.test(spec)) {
    const { openPostgresStore } = await import('./postgres/open-postgres.js');
    return openPostgresStore(spec);
  }
  throw new StoreOpenError(`--store ${JSON.stringify(spec)} is not understood: use ${storeSpecHelp}`);
}
