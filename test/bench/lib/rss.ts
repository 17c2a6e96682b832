// Resident set size of another process, sampled from /proc (Linux) or `ps` elsewhere, and the
// slopes the soak draws through memory samples.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { median } from './report.js';

export function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // no /proc: ask ps
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024;
}

/** Least-squares slope of `values` over `times`, in value units per time unit. */
export function slope(times: readonly number[], values: readonly number[]): number {
  const n = times.length;
  if (n < 2) return 0;
  const meanT = times.reduce((a, b) => a + b, 0) / n;
  const meanV = values.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i += 1) {
    num += (times[i]! - meanT) * (values[i]! - meanV);
    den += (times[i]! - meanT) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/**
 * Theil–Sen slope: the median of the slopes between every two samples. One sample far off the
 * line (memory a request in flight holds when the sample is taken) barely moves it, where it
 * tilts a least-squares line.
 */
export function medianSlope(times: readonly number[], values: readonly number[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < times.length; i += 1) {
    for (let j = i + 1; j < times.length; j += 1) if (times[j] !== times[i]) slopes.push((values[j]! - values[i]!) / (times[j]! - times[i]!));
  }
  return slopes.length === 0 ? 0 : median(slopes);
}
