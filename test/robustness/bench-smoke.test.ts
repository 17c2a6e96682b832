// CI smoke run of the benchmarks (`npm run bench -- --quick` and a short soak): each benchmark
// runs and produces its figures. Nothing here judges a timing: a slow CI machine passes, a
// benchmark that breaks or stops reporting a figure fails.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { benchmarks } from '../bench/benchmarks.js';
import { repoRoot } from '../bench/lib/processes.js';
import type { BenchResult } from '../bench/lib/report.js';
import { throughputTable } from '../bench/lib/throughput-table.js';

// The smoke run's JSON goes to a scratch directory, never over the real bench-results/.
const resultsDir = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
afterAll(() => rmSync(resultsDir, { recursive: true, force: true }));

function run(script: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync('npm', ['run', '-s', script, '--', ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 540_000,
    env: { ...process.env, BENCH_RESULTS_DIR: resultsDir },
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

function written(name: string): BenchResult {
  return JSON.parse(readFileSync(join(resultsDir, `${name}.json`), 'utf8')) as BenchResult;
}

const throughputResult = () => written('throughput');

/** Every row's figures are numbers (or a deliberate null ratio), none missing or NaN. */
function expectFigures(result: BenchResult, columns: string[]): void {
  expect(result.skipped).toBeUndefined();
  expect(result.rows.length).toBeGreaterThan(0);
  for (const row of result.rows) {
    for (const column of columns) {
      expect(typeof row[column], `${result.name}: ${column} of ${JSON.stringify(row)}`).toBe('number');
      expect(Number.isFinite(row[column] as number), `${result.name}: ${column}`).toBe(true);
    }
  }
}

describe('npm run bench -- --quick', () => {
  it('runs every benchmark and writes its figures', { timeout: 600_000 }, () => {
    const { status, output } = run('bench', ['--quick']);
    expect(status, output.slice(-3000)).toBe(0);
    for (const name of Object.keys(benchmarks)) expect(output).toContain(`== ${name}`);

    const throughput = written('throughput');
    expectFigures(throughput, ['req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'client µs/req', 'vs express', 'vs node:http', 'non-2xx', 'errors']);
    expect(new Set(throughput.rows.map((row) => row.server))).toEqual(new Set(['mock', 'mock long-lived', 'node:http', 'express 5']));
    expect(new Set(throughput.rows.map((row) => row.request))).toEqual(
      new Set(['v3 authenticated ping', 'v3 list GET routes', 'v3 quote POST', 'v1 signed deposit list', 'v1 signed deposit create']),
    );
    expect(new Set(throughput.rows.map((row) => row.connections))).toEqual(new Set([10, 50]));
    for (const row of throughput.rows) expect(row['non-2xx'], `${row.server} ${row.request}`).toBe(0);

    expectFigures(written('cold-start'), ['first 200 ms', 'vs bare node:http']);
    expect(written('cold-start').rows.map((row) => row.start)).toEqual(
      expect.arrayContaining(['checkout: npm start', 'installed: npx exchange-api-kit serve', 'installed: node_modules/.bin/exchange-api-kit serve']),
    );
    expectFigures(written('generate'), ['generation_ms', 'baseline_load_ms', 'ratio']);
    expectFigures(written('scale'), ['list page ms', 'list cursor ms', 'RSS MB']);
    expectFigures(written('restart'), ['file MB', 'first 200 ms', 'list page ms', 'list cursor ms']);
    const storeBytes = written('store-bytes');
    expectFigures(storeBytes, ['bytes per record']);
    // PostgreSQL's rows whenever it is installed (CI installs it).
    const engines = storeBytes.details?.postgres === undefined ? ['sqlite', 'postgres'] : ['sqlite'];
    expect(storeBytes.rows.map((row) => `${row.engine} ${row.records}`)).toEqual(engines.flatMap((engine) => [`${engine} deposits`, `${engine} orders with their event`]));
    expectFigures(written('webhooks'), ['signed_deliveries_per_s', 'plain_posts_per_s', 'ratio']);
    expectFigures(written('journal-flush'), ['flush after a create µs', 'flush, nothing changed µs', 'whole encoding µs', 'create vs whole']);
    const sustained = written('sustained');
    expectFigures(sustained, [
      'quotes driven',
      'fresh req/s',
      'long-lived req/s',
      'req/s vs fresh',
      'fresh CPU µs/req',
      'long-lived CPU µs/req',
      'CPU vs fresh',
      'heap MB at half',
      'heap MB at end',
      'heap B/1k quotes (2nd half)',
      'RSS MB at half',
      'RSS MB at end',
      'RSS B/1k quotes (2nd half)',
    ]);
    // Every quote of the drive and of the measurements was answered 2xx.
    expect(sustained.rows[0]!['non-2xx']).toBe(0);
    expect(sustained.rows[0]!.errors).toBe(0);
    const replicas = written('replicas');
    if (replicas.skipped === undefined) {
      expectFigures(replicas, ['req/s', 'p99 ms', 'CPU µs/req', 'non-2xx', 'errors']);
      expect(new Set(replicas.rows.map((row) => row.server))).toEqual(new Set(['2 workers, postgres', '1 process, postgres', '1 process, memory']));
      for (const row of replicas.rows) expect(row['non-2xx'], `${row.server} ${row.request}`).toBe(0);
    }
  });

  it('writes the throughput result as the README table, between its markers only', () => {
    const readme = join(resultsDir, 'README.md');
    const [before, after] = ['# Kit\n\n<!-- throughput table: written by npm run bench:readme -->\nold figures\n', '<!-- end of the throughput table -->\n\nmore text\n'];
    writeFileSync(readme, before + after);
    const { status, output } = run('bench:readme', [readme]);
    expect(status, output).toBe(0);
    const rewritten = readFileSync(readme, 'utf8');
    expect(rewritten.startsWith(before.replace('old figures\n', ''))).toBe(true);
    expect(rewritten.endsWith(after)).toBe(true);
    expect(rewritten).not.toContain('old figures');
    const table = rewritten.split('\n').filter((line) => line.startsWith('| v'));
    const fresh = (request: string, connections: number) => throughputResult().rows.find((row) => row.server === 'mock' && row.request === request && row.connections === connections)!;
    expect(table.map((line) => line.split(' | ')[0]!.slice(2))).toEqual([...new Set(throughputResult().rows.map((row) => row.request))]);
    for (const line of table) {
      const request = line.split(' | ')[0]!.slice(2);
      const reqs = [10, 50].map((connections) => (fresh(request, connections)['req/s'] as number).toLocaleString('en-US')).join(' / ');
      expect(line.split(' | ')[1]).toBe(reqs);
    }
  });

  it('makes no README table of a run without the fresh mock on memory (a --store run)', () => {
    const result = throughputResult();
    expect(throughputTable(result, 'now')).toContain('| v3 quote POST |');
    const onSqlite = { ...result, rows: result.rows.map((row) => (row.server === 'mock' ? { ...row, server: 'mock sqlite' } : row)) };
    expect(throughputTable(onSqlite, 'now')).toBeUndefined();
  });

  it('refuses to write a README table into a file without its markers', () => {
    const readme = join(resultsDir, 'NO-MARKERS.md');
    writeFileSync(readme, '# Kit\n');
    const { status, output } = run('bench:readme', [readme]);
    expect(status).toBe(1);
    expect(output).toMatch(/has no table markers/);
    expect(readFileSync(readme, 'utf8')).toBe('# Kit\n');
  });

  it('refuses an unknown benchmark name', () => {
    const { status, output } = run('bench', ['--quick', '--only', 'no-such-bench']);
    expect(status).not.toBe(0);
    expect(output).toMatch(/no benchmark no-such-bench/);
  });
});

describe('npm run soak (short)', () => {
  it('keeps the rate with no errors and reports the memory beyond the records it stored', { timeout: 120_000 }, () => {
    const { status, output } = run('soak', ['--duration', '3', '--rate', '100']);
    expect(status, output.slice(-3000)).toBe(0);
    const soak = written('soak');
    expectFigures(soak, [
      'req/s',
      'requests',
      'errors',
      'non-2xx',
      'records stored',
      'heap start MB',
      'heap end MB',
      'heap B/record (2nd half)',
      'beyond bounds B/record',
      'beyond records MB/min at asked rate',
      'RSS start MB',
      'RSS end MB',
      'RSS slope MB/min (2nd half)',
    ]);
    expect(soak.rows[0]!.errors).toBe(0);
    expect(soak.rows[0]!['non-2xx']).toBe(0);
    // The writes of the mix were counted as the records the memory is judged against.
    expect(soak.rows[0]!['records stored']).toBeGreaterThan(0);
  });
});
