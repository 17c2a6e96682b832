// A mock on a sqlite: file in a temporary folder, started in-process and restartable on the same
// file, for the suites proving that a restart resumes the sandbox.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxState } from '../../../generated/sandbox-control/types.js';
import type { StartOptions } from '../../../mock-server/server.js';
import { openStore } from '../../../mock-server/store/open-store.js';
import { startTestServer, type TestServer } from '../../mock-server/support/server.js';
import { exportState } from '../../snapshot/support/state-documents.js';

export interface SandboxFile {
  path: string;
  /** A mock on the file (closed with closeOn). */
  start(options?: StartOptions): Promise<TestServer>;
  remove(): void;
}

export function sandboxFile(name: string): SandboxFile {
  const folder = mkdtempSync(join(tmpdir(), `kit-durable-${name}-`));
  const path = join(folder, 'sandbox.db');
  return {
    path,
    start: async (options = {}) => {
      const store = await openStore(`sqlite:${path}`);
      const server = await startTestServer({ ...options, store });
      const close = server.close;
      return Object.assign(server, { close: () => close().then(() => store.close()) });
    },
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/**
 * The sandbox a mock on the file (started with `options`, without the real-time loop) exports
 * once `drive` has run, and what a mock restarted on the file exports.
 */
export async function acrossARestart(file: SandboxFile, options: StartOptions, drive: (server: TestServer) => Promise<void>): Promise<{ before: SandboxState; after: SandboxState }> {
  const first = await file.start(options);
  first.sandbox.stopDispatching();
  let before: SandboxState;
  try {
    await drive(first);
    before = await exportState(first);
  } finally {
    await first.close();
  }
  const second = await file.start();
  second.sandbox.stopDispatching();
  const after = await exportState(second);
  await second.close();
  return { before, after };
}
