// The durable store a test server runs on when EXCHANGE_API_KIT_TEST_STORE asks for one: a
// sqlite: file in a temporary folder, or a database of a PostgreSQL server started for it alone
// (a few seconds each; the mode is for a run of the whole suites on an engine, not for CI).
// Null for the memory engine (the variable unset).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxStore } from '../../../mock-server/store/sandbox-store.js';
import { openStore } from '../../../mock-server/store/open-store.js';
import { startPostgres } from '../../support/postgres-server.js';

export interface DurableTestStore {
  store: SandboxStore;
  /** Closes the store and removes its file or its server. */
  dispose(): Promise<void>;
}

export async function durableTestStore(engine: string | undefined): Promise<DurableTestStore | null> {
  if (engine === undefined || engine === '' || engine === 'memory') return null;
  if (engine === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), 'kit-test-store-'));
    const store = await openStore(`sqlite:${join(folder, 'sandbox.db')}`);
    return { store, dispose: async () => {
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    } };
  }
  if (engine === 'postgres') {
    const server = await startPostgres();
    const store = await openStore(await server.createDatabase());
    return { store, dispose: async () => {
      await store.close();
      server.stop();
    } };
  }
  throw new Error(`EXCHANGE_API_KIT_TEST_STORE=${engine}: choose memory, sqlite or postgres`);
}
