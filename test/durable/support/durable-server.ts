// A mock on a durable engine (a sqlite: file in a temporary folder, a database on the PostgreSQL
// server the engine starts), started in-process and restartable on the same place, for the suites
// proving that a restart resumes the sandbox. They run on every durable engine (test/store/support/
// engines.ts), PostgreSQL's skipped loudly where it is not installed.
import type { SandboxState } from '../../../generated/sandbox-control/types.js';
import type { StartOptions } from '../../../mock-server/server.js';
import { openStore } from '../../../mock-server/store/open-store.js';
import { startTestServer, type TestServer } from '../../mock-server/support/server.js';
import { exportState } from '../../snapshot/support/state-documents.js';
import { engines, type EngineUnderTest } from '../../store/support/engines.js';

/** The engines that keep a sandbox across restarts, each made anew for the suite that runs on it. */
export const durableEngines = (): EngineUnderTest[] => engines.map((make) => make()).filter((engine) => engine.name !== 'memory');

export interface DurablePlace {
  /** Its `--store` spec. */
  spec: string;
  /** A mock on it, its store closed with the server. */
  start(options?: StartOptions): Promise<TestServer>;
}

export async function durablePlace(engine: EngineUnderTest): Promise<DurablePlace> {
  const spec = await engine.place();
  return {
    spec,
    start: async (options = {}) => {
      const store = await openStore(spec);
      const server = await startTestServer({ ...options, store });
      const close = server.close;
      return Object.assign(server, { close: () => close().then(() => store.close()) });
    },
  };
}

/**
 * The sandbox a mock on `place` (started with `options`, without the real-time loop) exports
 * once `drive` has run, and what a mock restarted on it exports.
 */
/**
 * The sandbox's export once the writes its last answers started have landed: two exports in a
 * row that agree (but for taken_at) are it.
 */
async function settledState(server: TestServer): Promise<SandboxState> {
  let last = await exportState(server);
  for (let attempt = 0; attempt < 50; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const next = await exportState(server);
    if (JSON.stringify({ ...next, taken_at: null }) === JSON.stringify({ ...last, taken_at: null })) return next;
    last = next;
  }
  throw new Error('the sandbox kept changing: no two exports in a row agree');
}

export async function acrossARestart(place: DurablePlace, options: StartOptions, drive: (server: TestServer) => Promise<void>): Promise<{ before: SandboxState; after: SandboxState }> {
  const first = await place.start(options);
  first.sandbox.stopDispatching();
  let before: SandboxState;
  try {
    await drive(first);
    before = await settledState(first);
  } finally {
    await first.close();
  }
  const second = await place.start();
  second.sandbox.stopDispatching();
  const after = await exportState(second);
  await second.close();
  return { before, after };
}
