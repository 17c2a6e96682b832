// Child processes of the benchmarks: servers started from a script that prints one JSON line
// when it listens, free ports, and polling a URL until it answers 200.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** `node --import tsx`: how the benchmarks run TypeScript entry points in a child process. */
export const tsxNode = ['--import', 'tsx'];

export interface ChildServer<Info> {
  info: Info;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `node [nodeArgs] script [args]` and resolves with the first stdout line that parses as
 * JSON (the script's "I listen here" line). Rejects when the process exits first. `ipc` opens a
 * message channel to the child (child.send, its 'message' events).
 */
export function startChild<Info>(
  nodeArgs: readonly string[],
  script: string,
  args: readonly string[] = [],
  env: NodeJS.ProcessEnv = {},
  options: { ipc?: boolean } = {},
): Promise<ChildServer<Info>> {
  const stdio = ['ignore', 'pipe', 'pipe', ...(options.ipc === true ? ['ipc' as const] : [])] as const;
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: [...stdio] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const stop = () => stopProcess(child);
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      for (const line of buffered.split('\n').slice(0, -1)) {
        try {
          const info = JSON.parse(line) as Info;
          child.stdout!.off('data', onData);
          child.off('exit', onExit);
          child.stdout!.resume();
          resolve({ info, child, stop });
          return;
        } catch {
          // not the ready line
        }
      }
      buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
    };
    const onExit = (code: number | null) => reject(new Error(`${script} exited (${code}) before it was ready:\n${stderr}`));
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
}

/**
 * Sends SIGTERM and waits for the exit; `group` signals the child's whole process group (a child
 * spawned `detached` that starts its own children, as npm and npx do).
 */
export function stopProcess(child: ChildProcess, group = false): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    if (group) process.kill(-child.pid!, 'SIGTERM');
    else child.kill('SIGTERM');
  });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Polls `url` every `everyMs` until it answers 200; resolves with the ms elapsed since `startedAt`. */
export async function firstOk(url: string, startedAt: bigint, timeoutMs: number, everyMs = 2): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return Number(process.hrtime.bigint() - startedAt) / 1e6;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
