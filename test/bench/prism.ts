// Prism (`@stoplight/prism-cli`, fetched by npx) mocking one of our own contracts, as a baseline
// of the throughput benchmark: one Prism process per contract (Prism mocks one document). Prism
// runs static: it answers each operation's example after checking the request against the
// contract, and for the v1 family it checks only that the `hmac` scheme's X-Api-Key header is
// there, never the HMAC signature the mock verifies. Skipped with the reason when it cannot be
// fetched or does not start.
import { spawn } from 'node:child_process';
import { freePort, repoRoot, stopProcess, type ChildServer } from './lib/processes.js';

const startTimeoutMs = 180_000;

export type PrismStart = { skipped: string } | { server: ChildServer<{ url: string }>; basePath: string };

/** A request Prism must answer 2xx once it is up: a path below the contract's routes' base path. */
export interface PrismProbe {
  path: string;
  headers: () => Record<string, string>;
}

/**
 * Starts Prism on `contract` (the path of a file of contracts/). `routesBasePath` is where the generated route
 * table mounts the contract's paths; Prism may or may not route under it, so the probe tries both
 * and the answer says which one Prism serves (`basePath`).
 */
export async function startPrism(contract: string, routesBasePath: string, probe: PrismProbe): Promise<PrismStart> {
  const port = await freePort();
  const args = ['--yes', '@stoplight/prism-cli@5', 'mock', '-v', 'silent', '-h', '127.0.0.1', '-p', String(port), contract];
  const child = spawn('npx', args, { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  // npx runs Prism as a grandchild: stop the whole process group.
  const stop = () => stopProcess(child, true);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return { skipped: `npx @stoplight/prism-cli@5 exited with ${child.exitCode}: ${stderr.trim().split('\n').slice(-3).join(' ')}` };
    for (const basePath of new Set([routesBasePath, ''])) {
      try {
        const response = await fetch(`${url}${basePath}${probe.path}`, { headers: probe.headers() });
        await response.arrayBuffer();
        if (response.ok) return { server: { info: { url }, child, stop }, basePath };
      } catch {
        // not listening yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  return { skipped: `Prism did not answer ${contract} within ${startTimeoutMs / 1000} s` };
}
