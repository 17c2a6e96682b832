// The benchmarks of `npm run bench` by name, and a runner that reports each (table + JSON).
import { coldStart } from './cold-start.js';
import { journalFlush } from './journal-flush.js';
import { report, type BenchResult } from './lib/report.js';
import { replicas } from './replicas.js';
import { restart } from './restart.js';
import { scale } from './scale.js';
import { slowSenders } from './slow-senders.js';
import { storeBytes } from './store-bytes.js';
import { generation, webhookDeliveries } from './spawned-bench.js';
import { sustained } from './sustained.js';
import { throughput } from './throughput.js';

export interface BenchOptions {
  quick: boolean;
  withPrism: boolean;
  /** Storage engines the throughput benchmark runs the mock on (default memory). */
  stores?: readonly string[];
}

export const benchmarks: Record<string, (options: BenchOptions) => BenchResult | Promise<BenchResult>> = {
  throughput,
  'cold-start': coldStart,
  generate: generation,
  scale,
  restart,
  'store-bytes': storeBytes,
  webhooks: webhookDeliveries,
  'slow-senders': slowSenders,
  'journal-flush': journalFlush,
  replicas,
  sustained,
};

/** Runs the chosen benchmarks in order; a failing one is reported and the others still run. */
export async function runBenchmarks(names: readonly string[], options: BenchOptions): Promise<{ files: string[]; failed: string[] }> {
  const files: string[] = [];
  const failed: string[] = [];
  for (const name of names) {
    const bench = benchmarks[name];
    if (bench === undefined) throw new Error(`no benchmark ${name}; choose from ${Object.keys(benchmarks).join(', ')}`);
    try {
      files.push(report(await bench(options)));
    } catch (error) {
      failed.push(name);
      console.error(`\n== ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { files, failed };
}
