// The two benchmarks that predate `npm run bench` and keep their own scripts
// (bench:generate, bench:webhooks): run as child processes, their last output line is the
// JSON result.
import { spawnSync } from 'node:child_process';
import { repoRoot, tsxNode } from './lib/processes.js';
import type { BenchResult } from './lib/report.js';

function lastJsonLine(nodeArgs: string[], script: string, args: string[]): Record<string, string | number> {
  const result = spawnSync(process.execPath, [...nodeArgs, script, ...args], { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${script} failed (${result.status}):\n${result.stderr.slice(-2000)}`);
  const line = result.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as Record<string, string | number>;
}

/** Full generation (`generate --check`: load, model, emit every file, compare) vs loading the contracts alone. */
export function generation(options: { quick: boolean }): BenchResult {
  const figures = lastJsonLine([], 'test/bench/generate-time.mjs', ['--runs', options.quick ? '1' : '5']);
  return { name: 'generate', rows: [figures], details: { targetMs: 3000 } };
}

/** Signed webhook deliveries per second to a local receiver vs plain POSTs to it. */
export function webhookDeliveries(options: { quick: boolean }): BenchResult {
  const args = options.quick ? ['--count', '200', '--runs', '1'] : ['--count', '5000', '--runs', '3'];
  const figures = lastJsonLine(tsxNode, 'test/bench/webhook-deliveries.mjs', args);
  return { name: 'webhooks', rows: [figures] };
}
