// The outcome of a run: one result per (operation, check), with a reason for every failure and
// every skip, and the time it took. The reporters (table, JUnit XML, JSON) render this and
// nothing else.

export type Outcome = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  /** The operationId (or a flow's name, e.g. `flow:deposit`) the check is about. */
  operation: string;
  /** What was checked: `response:schema`, `auth:missing-token`, `pagination:cursor-walk`, … Unique per operation. */
  check: string;
  outcome: Outcome;
  /** Why it failed or was skipped; for a pass, what was observed. */
  reason: string;
  /**
   * Milliseconds since the previous result (or the start of the run): the checks run one after
   * another, so the durations of a run add up to its duration.
   */
  durationMs: number;
}

export interface Report {
  baseUrl: string;
  startedAt: string;
  durationMs: number;
  results: CheckResult[];
  summary: Record<Outcome, number>;
}

/**
 * Collects results in the order the checks produce them. A check a run repeats on one operation
 * (a status read after each transition) gets `#2`, `#3`… so every (operation, check) is unique.
 * A check that could not run for want of what the server offers (no route takes the built
 * requisites, no asset takes deposits) is a failure unless the run allows skips.
 */
export class ResultLog {
  readonly results: CheckResult[] = [];
  private readonly seen = new Map<string, number>();
  private last = performance.now();

  constructor(private readonly allowSkips = false) {}

  add(operation: string, check: string, outcome: Outcome, reason: string): void {
    const now = performance.now();
    const key = `${operation}\n${check}`;
    const count = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, count);
    const durationMs = Math.round((now - this.last) * 10) / 10;
    this.last = now;
    this.results.push({ operation, check: count === 1 ? check : `${check} #${count}`, outcome, reason, durationMs });
  }

  /** Pass when `problems` is empty, else fail with them joined. */
  judge(operation: string, check: string, problems: readonly string[], passReason: string): void {
    this.add(operation, check, problems.length === 0 ? 'pass' : 'fail', problems.length === 0 ? passReason : problems.join('; '));
  }

  /** Not run by the run's choice (a flag not given, credentials not passed, a scope not granted). */
  skip(operation: string, check: string, reason: string): void {
    this.add(operation, check, 'skip', reason);
  }

  /** Could not run with what the server offers: a failure, or a skip under --allow-skips. */
  cannotRun(operation: string, check: string, reason: string): void {
    if (this.allowSkips) this.add(operation, check, 'skip', reason);
    else this.add(operation, check, 'fail', `could not run: ${reason} (--allow-skips reports this as a skip)`);
  }
}

export function summarize(results: readonly CheckResult[]): Record<Outcome, number> {
  const summary: Record<Outcome, number> = { pass: 0, fail: 0, skip: 0 };
  for (const result of results) summary[result.outcome] += 1;
  return summary;
}
