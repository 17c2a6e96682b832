// Opens the engine a store spec names: `memory` (the default) or `sqlite:PATH`. Drivers load
// lazily: a user who never picks `sqlite:` needs no native addon.
import { MemoryStore } from './memory/memory-store.js';
import type { SandboxStore } from './sandbox-store.js';
import { StoreOpenError } from './store-open-error.js';

export const storeSpecHelp = 'memory or sqlite:PATH';

export async function openStore(spec: string): Promise<SandboxStore> {
  if (spec === 'memory') return new MemoryStore();
  if (spec.startsWith('sqlite:') && spec.length > 'sqlite:'.length) {
    const { openSqliteStore } = await import('./sqlite/open-sqlite.js');
    return openSqliteStore(spec.slice('sqlite:'.length));
  }
  throw new StoreOpenError(`--store ${JSON.stringify(spec)} is not understood: use ${storeSpecHelp}`);
}
