// One step of a flow: a call through a generated client whose answer must be a conforming
// success; logged as a row (flow, operationId) and returning the typed value, or undefined
// when the step failed (the flow then stops: later steps depend on it).
import type { Family } from '../contract/families.js';
import type { RunContext } from '../context.js';
import type { RecordedExchange } from '../http/exchange-log.js';
import { successProblems } from './judge-call.js';

export async function flowStep<T>(context: RunContext, flow: string, family: Family, operationId: string, run: () => Promise<T>): Promise<T | undefined> {
  const { exchange, value, error } = await context.call(run);
  return judgeStep(context, flow, family, operationId, exchange, error) ? value : undefined;
}

/** Logs an already made call as a flow step; true when it conformed. */
export function judgeStep(context: RunContext, flow: string, family: Family, operationId: string, exchange: RecordedExchange | undefined, error?: unknown): boolean {
  const problems = successProblems(family, operationId, exchange, error);
  context.log.judge(flow, operationId, problems, `HTTP ${exchange?.status ?? '?'}`);
  return problems.length === 0;
}
