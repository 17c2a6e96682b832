// The engines every store suite runs against: the memory engine and SQLite on a real file in a
// temporary folder. `open` makes a fresh store; `reopen` opens another connection to the same data
// (a restart, or a second process sharing the file), where the engine has one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore } from '../../../mock-server/store/memory/memory-store.js';
import { openStore } from '../../../mock-server/store/open-store.js';
import type { SandboxStore } from '../../../mock-server/store/sandbox-store.js';

export interface EngineUnderTest {
  name: string;
  /** A new, empty store; every store it made is closed and removed by `cleanUp`. */
  open(): Promise<SandboxStore>;
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
  return {
    name: 'sqlite',
    open: () => {
      folder ??= mkdtempSync(join(tmpdir(), 'kit-store-'));
      files += 1;
      return open(`sqlite:${join(folder, `sandbox-${files}.db`)}`);
    },
    reopen: (store) => open(`sqlite:${store.location}`),
    spec: (store) => `sqlite:${store.location}`,
    cleanUp: async () => {
      for (const store of opened.splice(0)) await store.close();
      if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
      folder = undefined;
    },
  };
}

export const engines: readonly (() => EngineUnderTest)[] = [memoryEngine, sqliteEngine];
