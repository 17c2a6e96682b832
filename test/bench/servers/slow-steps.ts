// Times each step of a seeding loop (one create) and keeps those over 1 ms, with the collector's
// pauses seen meanwhile, so a benchmark can tell a step that took long by itself (an index
// growing) from one the collector paused.
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** A step run as it is: for the seeding loops no benchmark times. */
export const untimed = { time: <T>(step: () => T): T => step() };

export class SlowSteps {
  private readonly slow: { startedAt: number; ms: number }[] = [];
  private readonly pauses: PerformanceEntry[] = [];
  private readonly observer = new PerformanceObserver((list) => this.pauses.push(...list.getEntries()));

  constructor() {
    this.observer.observe({ entryTypes: ['gc'] });
  }

  time<T>(step: () => T): T {
    const startedAt = performance.now();
    const result = step();
    const ms = performance.now() - startedAt;
    if (ms > 1) this.slow.push({ startedAt, ms });
    return result;
  }

  /** The longest step, and the longest during which the collector did not pause (ms). */
  async longest(): Promise<{ anyMs: number; withoutPauseMs: number }> {
    await new Promise((resolve) => setTimeout(resolve, 100)); // the observer is told of the last pauses a turn or two later
    this.observer.disconnect();
    const paused = (s: { startedAt: number; ms: number }) => this.pauses.some((p) => p.startTime < s.startedAt + s.ms && p.startTime + p.duration > s.startedAt);
    const longestOf = (steps: { ms: number }[]) => steps.reduce((most, s) => Math.max(most, s.ms), 0);
    return { anyMs: longestOf(this.slow), withoutPauseMs: longestOf(this.slow.filter((s) => !paused(s))) };
  }
}
