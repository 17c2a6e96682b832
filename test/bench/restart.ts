// Restart on a durable store: a `sqlite:` file holding 1,000 and 1,000,000 v1 deposits (seeded
// through the deposit service, then one journal write: test/bench/servers/seed-durable-store.ts),
// then `serve --store sqlite:FILE` started on it: spawn → first 200 on /api/v3/ping (median of
// the restarts), and on the last restart the v1 signed deposit list (20 a page, page and cursor
// mode) as its client calls it, as a ratio to the 1,000-deposit file's; and the file's bytes per
// deposit. The serve process's CPU time and RSS when it first answers are read from /proc: on a
// shared machine its CPU time holds better than the time to the first 200. 200,000 deposits are a
// point between, to see how the start grows. Targets (issue 17): first 200 ≤ 2 s and the list
// ≤ 1.5 × at 1M.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmacSigner, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { depositV1Routes, depositV1RoutesBasePath } from '../../generated/deposit-v1/routes.js';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { sandboxControlRoutes, sandboxControlRoutesBasePath } from '../../generated/sandbox-control/routes.js';
import type * as SandboxControl from '../../generated/sandbox-control/types.js';
import { cpuMs } from './lib/cpu.js';
import { firstOk, freePort, repoRoot, stopProcess, tsxNode } from './lib/processes.js';
import { rssBytes } from './lib/rss.js';
import { median, ratio, round, type BenchResult } from './lib/report.js';

const pingPath = `${exchangeV3RoutesBasePath}${exchangeV3Routes.find((r) => r.operationId === 'ping')!.path}`;
const listPath = `${depositV1RoutesBasePath}${depositV1Routes.find((r) => r.operationId === 'listDeposits')!.path}`;
const clockPath = `${sandboxControlRoutesBasePath}${sandboxControlRoutes.find((r) => r.operationId === 'getClock')!.path}`;

interface Seeded {
  seedMs: number;
  writeMs: number;
  storeBytes: number;
  siteKey: string;
  siteSecret: string;
}

interface Restarted {
  count: number;
  fileBytes: number;
  restartMs: number[];
  /** The serve process's CPU time (user + system) and RSS when it first answered, per restart. */
  startCpuMs: number[];
  startRssBytes: number[];
  listPageMs: number;
  listCursorMs: number;
}

function seed(file: string, count: number): Seeded {
  const args = ['--max-old-space-size=12288', ...tsxNode, 'test/bench/servers/seed-durable-store.ts', `sqlite:${file}`, 'deposits', String(count)];
  const result = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`seeding ${count} deposits failed:\n${result.stderr.slice(-2000)}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Seeded;
}

/** Median ms of `samples` sequential signed list calls, after three unmeasured ones. */
async function listLatency(url: string, seeded: Seeded, query: string, samples: number): Promise<number> {
  // Signed on the mock's clock, which the seeder froze: the file may be older than the signature window.
  const clock = (await (await fetch(`${url}${clockPath}`)).json()) as { result: SandboxControl.ClockState };
  const offsetMs = Date.parse(clock.result.now) - Date.now();
  const signer = createHmacSigner(depositV1SignatureScheme, { key: seeded.siteKey, secret: seeded.siteSecret }, { now: () => Date.now() + offsetMs });
  const times: number[] = [];
  for (let i = 0; i < samples + 3; i += 1) {
    const target = new URL(`${url}${listPath}?${query}`);
    const headers = new Headers();
    await signer({ method: 'GET', url: target, headers, body: undefined });
    const started = performance.now();
    const response = await fetch(target, { headers });
    await response.arrayBuffer();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`the deposit list answered ${response.status} to ?${query}`);
    if (i >= 3) times.push(ms);
  }
  return median(times);
}

async function restarts(file: string, count: number, repeats: number, samples: number): Promise<Restarted> {
  const seeded = seed(file, count);
  const restartMs: number[] = [];
  const startCpuMs: number[] = [];
  const startRssBytes: number[] = [];
  let list = { page: 0, cursor: 0 };
  for (let i = 0; i < repeats; i += 1) {
    const port = await freePort();
    const started = process.hrtime.bigint();
    const args = ['bin/exchange-api-kit.mjs', 'serve', '--port', String(port), '--log-level', 'silent', '--store', `sqlite:${file}`];
    const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: 'ignore' });
    try {
      const url = `http://127.0.0.1:${port}`;
      restartMs.push(await firstOk(`${url}${pingPath}`, started, 120_000));
      startCpuMs.push(cpuMs(child.pid!));
      startRssBytes.push(rssBytes(child.pid!));
      if (i === repeats - 1) {
        list = { page: await listLatency(url, seeded, 'page=1&perPage=20', samples), cursor: await listLatency(url, seeded, 'cursor=&perPage=20', samples) };
      }
    } finally {
      await stopProcess(child);
    }
  }
  return { count, fileBytes: seeded.storeBytes, restartMs, startCpuMs, startRssBytes, listPageMs: list.page, listCursorMs: list.cursor };
}

export async function restart(options: { quick: boolean }): Promise<BenchResult> {
  const counts = options.quick ? [100, 1_000] : [1_000, 200_000, 1_000_000];
  const work = mkdtempSync(join(tmpdir(), 'exchange-api-kit-restart-'));
  try {
    const measured: Restarted[] = [];
    for (const count of counts) measured.push(await restarts(join(work, `${count}.db`), count, options.quick ? 1 : 5, options.quick ? 5 : 30));
    const smallest = measured[0]!;
    const largest = measured.at(-1)!;
    const bytesPerDeposit = (largest.fileBytes - smallest.fileBytes) / (largest.count - smallest.count);
    return {
      name: 'restart',
      rows: measured.map((m) => ({
        'sqlite deposits': m.count.toLocaleString('en'),
        'file MB': round(m.fileBytes / 1e6, 1),
        'first 200 ms': round(median(m.restartMs)),
        'CPU ms then': round(median(m.startCpuMs)),
        'RSS MB then': round(median(m.startRssBytes) / 1e6),
        'list page ms': round(m.listPageMs, 2),
        'page vs smallest': ratio(m.listPageMs, smallest.listPageMs),
        'list cursor ms': round(m.listCursorMs, 2),
        'cursor vs smallest': ratio(m.listCursorMs, smallest.listCursorMs),
      })),
      details: { targets: { firstOkMs: 2000, listRatio: 1.5 }, fileBytesPerDeposit: round(bytesPerDeposit), measured },
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
