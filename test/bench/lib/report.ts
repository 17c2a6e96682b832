// What every benchmark reports: figures as medians over repeats, ratios against a baseline
// measured in the same run, printed as a table and written as JSON (bench-results/<name>.json).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './processes.js';

export interface BenchResult {
  name: string;
  /** One row per measured configuration, as printed. */
  rows: Record<string, string | number | null>[];
  /** Set when the benchmark could not run (e.g. Prism could not be fetched). */
  skipped?: string;
  /** Anything else worth keeping in the JSON (settings, targets, raw samples). */
  details?: Record<string, unknown>;
}

/** bench-results/ of the repository, or BENCH_RESULTS_DIR (the smoke test writes elsewhere). */
export const resultsDir = process.env.BENCH_RESULTS_DIR ?? join(repoRoot, 'bench-results');

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** `value / baseline` rounded to two decimals (null when either is missing). */
export function ratio(value: number | undefined, baseline: number | undefined): number | null {
  if (value === undefined || baseline === undefined || !Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return null;
  return Number((value / baseline).toFixed(2));
}

export function round(value: number, digits = 0): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Prints the result's table and writes its JSON; returns the file written. */
export function report(result: BenchResult): string {
  console.log(`\n== ${result.name}${result.skipped ? ` — skipped: ${result.skipped}` : ''}`);
  if (result.rows.length > 0) console.table(result.rows);
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${result.name}.json`);
  writeFileSync(file, `${JSON.stringify({ ...result, node: process.version, measuredAt: new Date().toISOString() }, null, 2)}\n`);
  return file;
}
