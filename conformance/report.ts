// The outcome of a run: one result per (operation, check), with a reason for every failure and
// every skip. The reporters (table, JUnit XML, JSON) render this and nothing else.

export type Outcome = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  /** The operationId (or a flow's name, e.g. `flow:deposit`) the check is about. */
  operation: string;
  /** What was checked: `response:schema`, `auth:missing-token`, `pagination:cursor-walk`, … */
  check: string;
  outcome: Outcome;
  /** Why it failed or was skipped; for a pass, what was observed. */
  reason: string;
}

export interface Report {
  baseUrl: string;
  startedAt: string;
  durationMs: number;
  results: CheckResult[];
  summary: Record<Outcome, number>;
}

/** Collects results in the order the checks produce them. */
export class ResultLog {
  readonly results: CheckResult[] = [];

  add(operation: string, check: string, outcome: Outcome, reason: string): void {
    this.results.push({ operation, check, outcome, reason });
  }

  /** Pass when `problems` is empty, else fail with them joined. */
  judge(operation: string, check: string, problems: readonly string[], passReason: string): void {
    this.add(operation, check, problems.length === 0 ? 'pass' : 'fail', problems.length === 0 ? passReason : problems.join('; '));
  }

  skip(operation: string, check: string, reason: string): void {
    this.add(operation, check, 'skip', reason);
  }
}

export function summarize(results: readonly CheckResult[]): Record<Outcome, number> {
  const summary: Record<Outcome, number> = { pass: 0, fail: 0, skip: 0 };
  for (const result of results) summary[result.outcome] += 1;
  return summary;
}
