// Cold start: spawn → first 200 on /api/v3/ping, as `npm start` runs the mock, as the bin runs it
// without npm in between (the dist/ bundle that `npm run build` / `prepare` writes; TypeScript
// through tsx when the bundle is stale), and as the TypeScript sources through tsx, against a
// baseline measured in the same run: a bare node:http server answering the same path. Median of
// the repeats. Run `npm run build` first, else the bin row measures the tsx fallback.
import { spawn } from 'node:child_process';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { firstOk, freePort, repoRoot, stopProcess, tsxNode } from './lib/processes.js';
import { median, ratio, round, type BenchResult } from './lib/report.js';

const pingPath = `${exchangeV3RoutesBasePath}${exchangeV3Routes.find((r) => r.operationId === 'ping')!.path}`;

const bareServer = `require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.argv[1]), '127.0.0.1')`;

interface Variant {
  name: string;
  command: (port: number) => [string, string[]];
}

const variants: Variant[] = [
  { name: 'npm start', command: (port) => ['npm', ['start', '--silent', '--', '--port', String(port)]] },
  { name: 'node bin/exchange-api-kit.mjs serve', command: (port) => [process.execPath, ['bin/exchange-api-kit.mjs', 'serve', '--port', String(port)]] },
  { name: 'node --import tsx mock-server/main.ts', command: (port) => [process.execPath, [...tsxNode, 'mock-server/main.ts', '--port', String(port)]] },
  { name: 'bare node:http (baseline)', command: (port) => [process.execPath, ['-e', bareServer, String(port)]] },
];

async function once(variant: Variant): Promise<number> {
  const port = await freePort();
  const [command, args] = variant.command(port);
  const started = process.hrtime.bigint();
  // Its own process group, so npm's child (the server) stops with it.
  const child = spawn(command, args, { cwd: repoRoot, stdio: 'ignore', detached: true });
  try {
    return await firstOk(`http://127.0.0.1:${port}${pingPath}`, started, 30_000);
  } finally {
    await stopProcess(child, true);
  }
}

export async function coldStart(options: { quick: boolean }): Promise<BenchResult> {
  const repeats = options.quick ? 1 : 7;
  const samples = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  for (let i = 0; i < repeats; i += 1) for (const variant of variants) samples.get(variant.name)!.push(await once(variant));
  const bare = median(samples.get(variants[variants.length - 1]!.name)!);
  return {
    name: 'cold-start',
    rows: variants.map((v) => {
      const ms = median(samples.get(v.name)!);
      return { start: v.name, 'first 200 ms': round(ms), 'vs bare node:http': ratio(ms, bare) };
    }),
    details: { repeats, path: pingPath, targetMs: 300, samples: Object.fromEntries(samples) },
  };
}
