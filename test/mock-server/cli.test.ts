// The command line (`npm start` = mock-server/main.ts): it starts on the given port with the
// given seed and token, prints a working URL and token, reads MOCK_TOKEN, refuses bad flags
// with exit code 2 and prints its usage on --help.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/contracts.js';
import { bearer, send } from './support/http.js';

const fixedToken = 'ci_fixed_token_0123456789';
const running: ChildProcess[] = [];

function start(args: string[], env: Record<string, string> = {}): ChildProcess {
  // Only what the CLI needs from the environment, so a developer's PORT or MOCK_* cannot leak in.
  const { PATH = '', HOME = '', NODE_OPTIONS } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'mock-server/main.ts', ...args], {
    cwd: repoRoot,
    env: { PATH, HOME, ...(NODE_OPTIONS === undefined ? {} : { NODE_OPTIONS }), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  return child;
}

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function collect(child: ChildProcess): Promise<Exit> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** Reads stdout until the banner's last line is printed; rejects when the process ends first. */
function banner(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (/try: curl .*\n/.test(stdout)) resolve(stdout);
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('close', (code) => reject(new Error(`the mock exited (${code}) before it was ready:\n${stdout}\n${stderr}`)));
  });
}

function printed(text: string): { url: string; token: string } {
  const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
  const token = /token: (\S+)/.exec(text)?.[1];
  if (url === undefined || token === undefined) throw new Error(`no URL or token in:\n${text}`);
  return { url, token };
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  child.kill('SIGTERM');
  return closed;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map(stop));
});

describe('the mock server CLI', () => {
  it('starts with --port 0 --seed --token, prints the URL and the token, which works, and stops on SIGTERM', async () => {
    const child = start(['--port', '0', '--seed', '3', '--token', fixedToken]);
    const output = await banner(child);
    const { url, token } = printed(output);
    expect(token).toBe(fixedToken);
    const ping = await send(url, '/api/v3/private/ping', { headers: bearer(token) });
    expect(ping.status).toBe(200);
    const clock = await send(url, '/__mock/clock');
    expect(clock.status).toBe(200);
    const inspector = /inspector:\s+(\S+)/.exec(output)?.[1];
    expect(inspector).toBe(`${url}/__mock/ui/`);
    expect((await fetch(inspector!)).status).toBe(200);
    expect(await stop(child)).toBe(0);
  });

  it('takes the default token from MOCK_TOKEN', async () => {
    const child = start(['--port', '0'], { MOCK_TOKEN: 'env_token_abcdefghijklmnop' });
    const { url, token } = printed(await banner(child));
    expect(token).toBe('env_token_abcdefghijklmnop');
    expect((await send(url, '/api/v3/private/ping', { headers: bearer(token) })).status).toBe(200);
  });

  it('the same --seed prints the same site credentials', async () => {
    const outputs = await Promise.all([1, 2].map(async () => banner(start(['--port', '0', '--seed', '3']))));
    const site = (text: string) => /site key: (\S+)\s+secret: (\S+)/.exec(text)?.slice(1);
    expect(site(outputs[0]!)).toBeDefined();
    expect(site(outputs[1]!)).toEqual(site(outputs[0]!));
    expect(printed(outputs[1]!).token).toBe(printed(outputs[0]!).token);
  });

  it('--no-control serves no /__mock', async () => {
    const child = start(['--port', '0', '--no-control']);
    const { url } = printed(await banner(child));
    expect((await send(url, '/__mock/clock')).status).toBe(404);
  });

  it.each([
    [['--port', 'abc'], /--port/],
    [['--port', '70000'], /--port/],
    [['--seed', '-1'], /--seed/],
    [['--token', 'short'], /--token/],
    [['--no-such-flag'], /no-such-flag/],
  ])('refuses %j with exit code 2 and a message', async (args, message) => {
    const exit = await collect(start(args));
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(message);
    expect(exit.stderr).toMatch(/usage/);
  });

  it('--help prints the usage and exits 0', async () => {
    const exit = await collect(start(['--help']));
    expect(exit.code).toBe(0);
    expect(exit.stdout).toMatch(/^usage:/);
    for (const flag of ['--port', '--seed', '--token', '--no-control', '--admin-token']) expect(exit.stdout).toContain(flag);
  });
});
