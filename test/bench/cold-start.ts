// Cold start: spawn → first 200 on /api/v3/ping, in a checkout and as installed, against a
// baseline measured in the same run (a bare node:http server answering the same path). Median of
// the repeats.
// - In the checkout: `npm start`; the bin without npm in between (dist/, which `npm ci` builds;
//   the TypeScript through tsx when dist/ is stale: run `npm run build` first); the TypeScript
//   sources through tsx.
// - Installed: the kit packed and installed into a temporary project as an integrator's project
//   installs it (test/library/support/consumer-project.ts), started with `npx exchange-api-kit
//   serve` and with the bin npm linked (node_modules/.bin/exchange-api-kit, npx's own start-up
//   left out). The target (≤ 300 ms) is the bin's.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { installConsumer, packKit } from '../library/support/consumer-project.js';
import { firstOk, freePort, repoRoot, stopProcess, tsxNode } from './lib/processes.js';
import { median, ratio, round, type BenchResult } from './lib/report.js';

const pingPath = `${exchangeV3RoutesBasePath}${exchangeV3Routes.find((r) => r.operationId === 'ping')!.path}`;

const bareServer = `require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.argv[1]), '127.0.0.1')`;

interface Variant {
  name: string;
  /** Command and arguments, and the folder it runs in. */
  command: (port: number, consumer: string) => [string, string[], string];
}

const variants: Variant[] = [
  { name: 'checkout: npm start', command: (port) => ['npm', ['start', '--silent', '--', '--port', String(port)], repoRoot] },
  { name: 'checkout: node bin/exchange-api-kit.mjs serve', command: (port) => [process.execPath, ['bin/exchange-api-kit.mjs', 'serve', '--port', String(port)], repoRoot] },
  { name: 'checkout: node --import tsx mock-server/main.ts', command: (port) => [process.execPath, [...tsxNode, 'mock-server/main.ts', '--port', String(port)], repoRoot] },
  { name: 'installed: npx exchange-api-kit serve', command: (port, consumer) => ['npx', ['--offline', 'exchange-api-kit', 'serve', '--port', String(port)], consumer] },
  {
    name: 'installed: node_modules/.bin/exchange-api-kit serve',
    command: (port, consumer) => [join(consumer, 'node_modules', '.bin', 'exchange-api-kit'), ['serve', '--port', String(port)], consumer],
  },
  { name: 'bare node:http (baseline)', command: (port) => [process.execPath, ['-e', bareServer, String(port)], repoRoot] },
];

async function once(variant: Variant, consumer: string): Promise<number> {
  const port = await freePort();
  const [command, args, cwd] = variant.command(port, consumer);
  const started = process.hrtime.bigint();
  // Its own process group, so the server npm or npx started stops with it.
  const child = spawn(command, args, { cwd, stdio: 'ignore', detached: true });
  try {
    return await firstOk(`http://127.0.0.1:${port}${pingPath}`, started, 30_000);
  } finally {
    await stopProcess(child, true);
  }
}

export async function coldStart(options: { quick: boolean }): Promise<BenchResult> {
  const repeats = options.quick ? 1 : 7;
  const work = mkdtempSync(join(tmpdir(), 'exchange-api-kit-cold-start-'));
  try {
    const consumer = installConsumer(work, packKit(work), []);
    const samples = new Map<string, number[]>(variants.map((v) => [v.name, []]));
    for (let i = 0; i < repeats; i += 1) for (const variant of variants) samples.get(variant.name)!.push(await once(variant, consumer));
    const bare = median(samples.get(variants[variants.length - 1]!.name)!);
    return {
      name: 'cold-start',
      rows: variants.map((v) => {
        const ms = median(samples.get(v.name)!);
        return { start: v.name, 'first 200 ms': round(ms), 'vs bare node:http': ratio(ms, bare) };
      }),
      details: { repeats, path: pingPath, targetMs: 300, samples: Object.fromEntries(samples) },
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
