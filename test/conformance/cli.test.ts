// The conformance command line: usage errors exit 2 with the reason, a clean run exits 0 and
// writes well-formed JUnit XML and JSON reports, a failing check exits 1.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformanceCli } from '../../conformance/cli-main.js';
import type { Report } from '../../conformance/index.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { binRunner, output } from '../support/bin-process.js';
import { repoRoot } from '../support/contracts.js';
import { editJson, startMutatingProxy } from './support/mutating-proxy.js';

let mock: RunningMockServer;
let dir: string;
const runBin = binRunner(repoRoot);

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 10, strict: true, webhookEgress: 'loopback' });
  dir = mkdtempSync(join(tmpdir(), 'conformance-cli-'));
});

afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runConformanceCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

function credentials(): string[] {
  return ['--token', mock.token, '--v1-key', mock.site.apiKey, '--v1-secret', mock.site.apiSecret];
}

describe('usage errors exit 2 with the reason and the usage text', () => {
  it.each([
    [[], /--base-url is required/],
    [['--base-url', 'ftp://x'], /--base-url must be an http\(s\) URL/],
    [['--base-url', 'http://x', '--frobnicate'], /Unknown option '--frobnicate'/],
    [['--base-url', 'http://x', '--v1-key', 'k'], /--v1-key and --v1-secret go together/],
    [['--base-url', 'http://x', '--hmac-secret', 's'], /--hmac-secret needs --token/],
    [['--base-url', 'http://x', '--only', 'Nonsense'], /unknown tag\(s\) Nonsense; known: .*Webhooks/],
    [['--base-url', 'http://x', '--only', ','], /--only needs at least one value/],
    [['--base-url', 'http://x', '--admin-token', 't'], /--admin-token needs --sandbox/],
    [['--base-url', 'http://x', '--skip-operations', 'getClient,noSuchOp'], /--skip-operations: unknown operationId\(s\) noSuchOp/],
  ])('%j', async (argv, reason) => {
    const { code, stderr, stdout } = await cli(argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(reason);
    expect(stderr).toContain('usage: npm run conformance');
    expect(stdout).toBe('');
  });

  it('--help prints the usage and exits 0', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Exit codes: 0');
  });

  it('the npm script entry exits 2 on a usage error', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'conformance/cli.ts', '--only'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Option '--only <value>' argument missing");
  });
});

describe('a run', () => {
  it('exits 0 when nothing fails and writes the JUnit XML and JSON reports', async () => {
    const junit = join(dir, 'report.xml');
    const json = join(dir, 'report.json');
    const { code, stdout } = await cli(['--base-url', mock.url, ...credentials(), '--only', 'Platform,Account', '--junit', junit, '--json', json]);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/^operation +check +result +reason/);
    expect(stdout).toMatch(/getClient +response:schema +PASS/);

    const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(report.baseUrl).toBe(mock.url);
    expect(report.summary.fail).toBe(0);
    expect(report.summary.pass).toBe(report.results.filter((r) => r.outcome === 'pass').length);
    expect(report.results.every((r) => r.operation !== '' && r.check !== '')).toBe(true);

    expect(report.results.every((r) => typeof r.durationMs === 'number' && r.durationMs >= 0)).toBe(true);

    const xml = readFileSync(junit, 'utf8');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="conformance"')).toBe(true);
    expect(xml).toContain(`tests="${report.results.length}" failures="0"`);
    expect(xml.match(/<testcase /g)).toHaveLength(report.results.length);
    // Every case has a time, and no suite names a case twice.
    expect(xml.match(/<testcase classname="[^"]*" name="[^"]*" time="\d+\.\d{3}"/g)).toHaveLength(report.results.length);
    for (const suite of xml.split('<testsuite ').slice(1)) {
      const names = [...suite.matchAll(/<testcase classname="[^"]*" name="([^"]*)"/g)].map((match) => match[1]);
      expect(new Set(names).size, suite.slice(0, 80)).toBe(names.length);
    }
    expect(xml.match(/<testsuite /g)?.length).toBe(xml.match(/<\/testsuite>/g)?.length);
    expect(xml).not.toMatch(/&(?!amp;|lt;|gt;|quot;)/);
    expect(xml.trimEnd().endsWith('</testsuites>')).toBe(true);
  });

  it('reports the operations --skip-operations names as skipped, with the reason', async () => {
    const { code, stdout } = await cli(['--base-url', mock.url, ...credentials(), '--only', 'Account', '--skip-operations', 'getUsage']);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/getUsage +all +SKIP +skipped by --skip-operations/);
    expect(stdout).not.toMatch(/getUsage +response:/);
  });

  it('fails a check that could not run with what the server offers, and skips it under --allow-skips', async () => {
    // A fresh sandbox has no orders: the read of one order has no id to address.
    const fresh = await startMockServer({ port: 0, seed: 12 });
    try {
      const args = ['--base-url', fresh.url, '--token', fresh.token, '--only', 'Orders'];
      const strict = await cli(args);
      expect(strict.code).toBe(1);
      expect(strict.stdout).toMatch(/getOrder +response +FAIL +could not run: no value for \{order\}: listOrders listed none \(--allow-skips reports this as a skip\)/);
      const lenient = await cli([...args, '--allow-skips']);
      expect(lenient.code, lenient.stdout).toBe(0);
      expect(lenient.stdout).toMatch(/getOrder +response +SKIP +no value for \{order\}: listOrders listed none/);
      expect(lenient.stdout).toMatch(/: \d+ passed, 0 failed, [1-9]\d* skipped/);
    } finally {
      await fresh.close();
    }
  });

  it('exits 1 with one clear failure when nothing answers at the base URL', async () => {
    const closed = await startMockServer({ port: 0 });
    await closed.close();
    const { code, stdout } = await cli(['--base-url', closed.url]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/setup +reachable +FAIL +no answer from http:\/\/127\.0\.0\.1:\d+: fetch failed/);
    expect(stdout).toContain('0 passed, 1 failed, 0 skipped');
  });

  it('exits 1 when a check fails, naming it in the table and the JUnit failure', async () => {
    const proxy = await startMutatingProxy(mock.url, {
      response: (req, res) => (req.target === '/api/v3/private/client' && res.status === 200 ? editJson(res, (body) => { body.result.name = 42; }) : res),
    });
    try {
      const junit = join(dir, 'failing.xml');
      const { code, stdout } = await cli(['--base-url', proxy.url, ...credentials(), '--only', 'Account', '--junit', junit]);
      expect(code).toBe(1);
      expect(stdout).toMatch(/getClient +response:schema +FAIL +body does not match the contract/);
      expect(readFileSync(junit, 'utf8')).toMatch(/<testcase classname="getClient" name="response:schema" time="[\d.]+">\n +<failure message="body does not match the contract: \/result\/name must be string/);
    } finally {
      await proxy.close();
    }
  });

  // The command itself, so what is checked is the bytes it writes to the terminal.
  it('prints the control characters of a server\'s message escaped, never raw', async () => {
    const proxy = await startMutatingProxy(mock.url, {
      response: (req, res) =>
        req.target === '/api/v3/private/client'
          ? editJson({ ...res, status: 401 }, (body) => {
              body.state = 1;
              body.message = 'bad \u0001\u001b[31m red\u009b2J \u202eevil';
              body.result = null;
              body.error = { code: 'invalid_token' };
            })
          : res,
    });
    try {
      const { code, stdout } = await output(runBin(['conformance', '--base-url', proxy.url, ...credentials(), '--only', 'Account']));
      expect(code).toBe(1);
      expect(stdout).toContain('HTTP 401 (invalid_token: bad \\u0001\\u001b[31m red\\u009b2J \\u202eevil)');
      expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    } finally {
      await proxy.close();
    }
  });
});
