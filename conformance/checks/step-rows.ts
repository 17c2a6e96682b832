// One row per operation for calls a flow repeats while it tries candidates (the exchange flow's
// routes), so the number of checks does not depend on how many it tried.
import type { Family } from '../contract/families.js';
import type { RunContext } from '../context.js';
import { judgeResponse, problemsOf } from '../judge/response.js';
import { describeError, successProblems } from './judge-call.js';

/**
 * The calls of one operation made while a flow tries candidates (routes), judged together: each
 * answer must conform to the contract; a documented refusal (4xx) lets the flow try the next
 * candidate. `close` logs one row per operation called, however many candidates were tried.
 */
export class StepRows {
  private readonly rows = new Map<string, { statuses: Map<number, number>; problems: string[] }>();

  constructor(
    private readonly context: RunContext,
    private readonly flow: string,
    private readonly family: Family,
  ) {}

  /** The value of a conforming success, 'refused' for a conforming refusal, 'stop' otherwise. */
  async call<T>(operationId: string, run: () => Promise<T>): Promise<T | 'refused' | 'stop'> {
    const row = this.rows.get(operationId) ?? { statuses: new Map<number, number>(), problems: [] };
    this.rows.set(operationId, row);
    const { exchange, value, error } = await this.context.call(run);
    if (exchange === undefined) {
      row.problems.push(`no answer: ${describeError(error)}`);
      return 'stop';
    }
    row.statuses.set(exchange.status, (row.statuses.get(exchange.status) ?? 0) + 1);
    const problems = exchange.status < 300 ? successProblems(this.family, operationId, exchange, error) : problemsOf(judgeResponse(this.family, operationId, exchange));
    if (problems.length > 0) {
      row.problems.push(...problems);
      return 'stop';
    }
    return exchange.status < 300 && value !== undefined ? value : 'refused';
  }

  /** Logs the rows; `took` names what the last answers were for. Returns undefined for `return steps.close()`. */
  close(took?: string): undefined {
    for (const [operationId, row] of this.rows) {
      const statuses = [...row.statuses].map(([status, count]) => `HTTP ${status}${count > 1 ? ` ×${count}` : ''}`).join(', ');
      this.context.log.judge(this.flow, operationId, row.problems, `${statuses}${took === undefined ? '' : `, the last for ${took}`}`);
    }
    return undefined;
  }
}
