// `exchange-api-kit proxy` as a process in front of a running mock: --max-requests ends it with
// the summary, JUnit and JSON reports and exit code 1 under --fail-on-violation; SIGTERM ends a
// clean run with 0, and a second Ctrl-C while a request hangs still leaves the summary and the
// reports; a missing --target is a usage error.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { repoRoot } from '../support/contracts.js';

const bin = join(repoRoot, 'bin', 'exchange-api-kit.mjs');
const dir = mkdtempSync(join(tmpdir(), 'proxy-command-'));
const running: ChildProcess[] = [];
let mock: RunningMockServer;

beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function start(args: string[]): { child: ChildProcess; url: Promise<string>; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const { PATH = '', HOME = '' } = process.env;
  const child = spawn(process.execPath, [bin, 'proxy', ...args], { cwd: dir, env: { PATH, HOME }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let stdout = '';
  let stderr = '';
  const url = new Promise<string>((resolve) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (found !== undefined) resolve(found);
    });
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return { child, url, done };
}

describe('exchange-api-kit proxy', () => {
  it('stops after --max-requests, writes the reports and exits 1 with --fail-on-violation', async () => {
    const junit = join(dir, 'proxy.xml');
    const json = join(dir, 'proxy.json');
    const run = start(['--target', mock.url, '--port', '0', '--max-requests', '2', '--fail-on-violation', '--junit', junit, '--json', json]);
    const url = await run.url;
    expect((await fetch(`${url}/api/v3/private/ping`, { headers: { authorization: `Bearer ${mock.token}` } })).status).toBe(200);
    expect((await fetch(`${url}/api/v3/private/orders?per_page=0`, { headers: { authorization: `Bearer ${mock.token}` } })).status).toBe(422);
    const { code, stdout } = await run.done;
    expect(code).toBe(1);
    expect(stdout).toMatch(/violation #2 GET \/api\/v3\/private\/orders\?per_page=0 → 422 \(listOrders\) request query\.per_page/);
    expect(stdout).toMatch(/proxy summary: 2 exchanges in [\d.]+ s, 1 with violations \(1 violation\), 0 not answered by the target\n\s+listOrders\s+1 violation/);
    expect(stdout).not.toContain(mock.token);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { summary: Record<string, number>; exchanges: { operationId: string }[] };
    expect(report.summary).toEqual({ exchanges: 2, exchangesWithViolations: 1, violations: 1, failures: 0 });
    expect(report.exchanges.map((exchange) => exchange.operationId)).toEqual(['privatePing', 'listOrders']);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="conformance" tests="2" failures="1" skipped="0"/);
    expect(xml).toMatch(/<testsuite name="listOrders" tests="1" failures="1"/);
  });

  it('ends a clean run on SIGTERM with the summary and exit code 0', async () => {
    const run = start(['--target', mock.url, '--port', '0', '--fail-on-violation']);
    const url = await run.url;
    expect((await fetch(`${url}/api/v3/ping`)).status).toBe(200);
    run.child.kill('SIGTERM');
    const { code, stdout } = await run.done;
    expect(code).toBe(0);
    expect(stdout).toMatch(/proxy summary: 1 exchange in [\d.]+ s, 0 with violations/);
  });

  it('still prints the summary and writes the reports when a second Ctrl-C comes while a request is in flight', async () => {
    let arrived!: () => void;
    const forwarded = new Promise<void>((resolve) => (arrived = resolve));
    // Never answers the exchange under test; answers the probes (under the pass-through prefix, so not counted) at once.
    const hanging = createServer((req, res) => (req.url!.startsWith('/__mock') ? res.end() : arrived()));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const json = join(dir, 'interrupted.json');
    try {
      const run = start(['--target', `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`, '--port', '0', '--json', json]);
      const url = await run.url;
      const answer = fetch(`${url}/api/v3/ping`).then((response) => response.status);
      await forwarded;
      run.child.kill('SIGINT');
      // The first Ctrl-C has been handled once the proxy takes no new connection.
      while (await fetch(`${url}/__mock/probe`).then(() => true, () => false));
      run.child.kill('SIGINT');
      const { code, stdout } = await run.done;
      expect(code).toBe(0);
      expect(await answer).toBe(503);
      expect(stdout).toMatch(/proxy summary: 0 exchanges in [\d.]+ s, 0 with violations \(0 violations\), 1 not answered by the target/);
      expect((JSON.parse(readFileSync(json, 'utf8')) as { summary: Record<string, number> }).summary).toMatchObject({ exchanges: 0, failures: 1 });
    } finally {
      hanging.closeAllConnections();
      hanging.close();
    }
  });

  it('refuses to start without --target', async () => {
    const { code, stderr } = await start([]).done;
    expect(code).toBe(2);
    expect(stderr).toMatch(/--target is required/);
  });
});
