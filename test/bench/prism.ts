// Prism (`@stoplight/prism-cli`, fetched by npx) mocking our own v3 contract, as a third
// baseline of the throughput benchmark. Skipped with the reason when it cannot be fetched or
// does not start.
import { spawn } from 'node:child_process';
import { exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { freePort, repoRoot, stopProcess, type ChildServer } from './lib/processes.js';

const startTimeoutMs = 180_000;

export type PrismStart = { skipped: string } | { server: ChildServer<{ url: string }>; basePath: string };

export async function startPrism(headers: Record<string, string>): Promise<PrismStart> {
  const port = await freePort();
  const args = ['--yes', '@stoplight/prism-cli@5', 'mock', '-v', 'silent', '-h', '127.0.0.1', '-p', String(port), 'contracts/exchange-v3.openapi.yaml'];
  const child = spawn('npx', args, { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  // npx runs Prism as a grandchild: stop the whole process group.
  const stop = () => stopProcess(child, true);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return { skipped: `npx @stoplight/prism-cli@5 exited with ${child.exitCode}: ${stderr.trim().split('\n').slice(-3).join(' ')}` };
    // Prism may or may not route under the server URL's path; take whichever answers.
    for (const basePath of [exchangeV3RoutesBasePath, '']) {
      try {
        const response = await fetch(`${url}${basePath}/ping`, { headers });
        await response.arrayBuffer();
        if (response.status === 200) return { server: { info: { url }, child, stop }, basePath };
      } catch {
        // not listening yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  return { skipped: `Prism did not answer within ${startTimeoutMs / 1000} s` };
}
