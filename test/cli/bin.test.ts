// The `exchange-api-kit` bin as a process: serve with a config file prints the banner with a
// working token and logs one JSON line per request when stdout is not a terminal, stops with
// exit code 0 on SIGTERM, exits 1 when it cannot start; generate --out writes the generated
// files and --check sees them go stale; conformance is the runner's own command.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/contracts.js';

const bin = join(repoRoot, 'bin', 'exchange-api-kit.mjs');
const running: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'exchange-api-kit-bin-'));

function run(args: string[], env: Record<string, string> = {}): ChildProcess {
  // Only what the command needs from the environment, so a developer's PORT or MOCK_* cannot leak in.
  const { PATH = '', HOME = '' } = process.env;
  const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env: { PATH, HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  return child;
}

interface Output {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Collects the output; `until` resolves early (code null) once stdout matches it. */
function output(child: ChildProcess, until?: RegExp): Promise<Output> {
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

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('exchange-api-kit serve', () => {
  it('starts from a config file, prints a working token, logs JSON lines and exits 0 on SIGTERM', async () => {
    const config = join(dir, 'mock.yaml');
    writeFileSync(config, 'port: 0\nseed: 5\ntoken: ci_token_from_the_config_file\n');
    const child = run(['serve', '--config', config]);
    const logged = output(child);
    const { stdout } = await output(child, /try: curl .*\n/);
    const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
    expect(stdout).toContain('token: ci_token_from_the_config_file');
    expect(stdout).toContain(`API reference:    ${url}/docs`);
    const ping = await fetch(`${url}/api/v3/private/ping`, { headers: { Authorization: 'Bearer ci_token_from_the_config_file' } });
    expect(ping.status).toBe(200);

    child.kill('SIGTERM');
    const exit = await logged;
    expect(exit.code).toBe(0);
    const logLines = exit.stdout.split('\n').filter((line) => line.startsWith('{'));
    const entries = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toEqual([expect.objectContaining({ method: 'GET', path: '/api/v3/private/ping', status: 200, reqId: ping.headers.get('x-request-id') })]);
    expect(logLines.join('\n')).not.toContain('ci_token_from_the_config_file');
  });

  it('--log-level warn leaves answered requests out', async () => {
    const child = run(['serve', '--port', '0', '--log-level', 'warn']);
    const logged = output(child);
    const { stdout } = await output(child, /try: curl .*\n/);
    const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
    expect((await fetch(`${url}/api/v3/ping`)).status).toBe(200);
    child.kill('SIGTERM');
    const exit = await logged;
    expect(exit.code).toBe(0);
    expect(exit.stdout.split('\n').filter((line) => line.startsWith('{'))).toEqual([]);
  });

  it('exits 1 when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const exit = await output(run(['serve'], { PORT: String(port) }));
      expect(exit.code).toBe(1);
      expect(exit.stderr).toMatch(/cannot start: .*EADDRINUSE/);
    } finally {
      blocker.close();
    }
  });

  it('exits 2 on a bad environment variable, naming it', async () => {
    const exit = await output(run(['serve'], { MOCK_LOG_LEVEL: 'chatty' }));
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(/MOCK_LOG_LEVEL must be one of/);
  });
});

describe('exchange-api-kit generate --out', () => {
  it('writes the generated clients into a directory; --check is 0 while fresh and 1 once a file changes', async () => {
    const out = join(dir, 'generated');
    const written = await output(run(['generate', '--out', out]));
    expect(written.code, written.stderr).toBe(0);
    const client = join(out, 'exchange-v3', 'client.ts');
    expect(readFileSync(client, 'utf8')).toMatch(/^\/\/ generated by npm run generate from contracts\/exchange-v3.openapi.yaml — do not edit\n[\s\S]*export class ExchangeV3Client/);
    expect((await output(run(['generate', '--out', out, '--check']))).code).toBe(0);
    writeFileSync(client, '// edited\n');
    const stale = await output(run(['generate', '--out', out, '--check']));
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('exchange-v3/client.ts');
  }, 180_000); // three runs of the generator
});

describe('exchange-api-kit conformance', () => {
  it("is the conformance runner's command: its help, and exit 2 on a bad flag", async () => {
    const help = await output(run(['conformance', '--help']));
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--base-url');
    const bad = await output(run(['conformance', '--no-such-flag']));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no-such-flag');
  });
});
