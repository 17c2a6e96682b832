// The `exchange-api-kit` bin as a child process, for the suites that run the command itself:
// started with only PATH and HOME from the environment (a developer's PORT or MOCK_* cannot leak
// in), its output collected, and killed after each test if it is still running.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { repoRoot } from './contracts.js';

const bin = join(repoRoot, 'bin', 'exchange-api-kit.mjs');

export interface Output {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bin in `cwd`; every process started is killed after the test that started it. */
export function binRunner(cwd: string): (args: string[], env?: Record<string, string>) => ChildProcess {
  const running: ChildProcess[] = [];
  afterEach(() => {
    for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });
  return (args, env = {}) => {
    const { PATH = '', HOME = '' } = process.env;
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { PATH, HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    running.push(child);
    return child;
  };
}

/** Collects the output; `until` resolves early (code null) once stdout matches it. */
export function output(child: ChildProcess, until?: RegExp): Promise<Output> {
  let stdout = '';
  let stderr = '';
  return new Promise((resolve) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (until?.test(stdout)) resolve({ code: null, stdout, stderr });
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
