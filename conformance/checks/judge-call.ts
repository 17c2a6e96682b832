// Logs the judgement of one answer as result rows: one row per response aspect (`response:schema`),
// or one row for a check that expects a particular answer (`auth:missing-token`).
import type { Family } from '../contract/families.js';
import type { RunContext } from '../context.js';
import type { RecordedExchange } from '../http/exchange-log.js';
import { errorCodeOf, errorSummary, judgeResponse, judgeUnroutedError, problemsOf, responseAspects, type Judgement } from '../judge/response.js';

/**
 * The judgement of an answer that should be a documented success, aspect by aspect; a string when
 * nothing more can be judged (no answer, an undocumented status).
 */
export function judgeSuccess(family: Family, operationId: string, exchange: RecordedExchange | undefined, error: unknown): Judgement | string {
  if (exchange === undefined) return `no answer: ${describeError(error)}`;
  const judgement = judgeResponse(family, operationId, exchange);
  if (judgement.status.length > 0) return judgement.status.join('; ');
  if (exchange.status < 200 || exchange.status >= 300) {
    judgement.status.push(`expected a success, got HTTP ${exchange.status}${errorSummary(exchange)}`);
  }
  return judgement;
}

/** Problems of an answer that should be a documented success, each prefixed with its aspect. */
export function successProblems(family: Family, operationId: string, exchange: RecordedExchange | undefined, error: unknown): string[] {
  const judgement = judgeSuccess(family, operationId, exchange, error);
  return typeof judgement === 'string' ? [`status: ${judgement}`] : problemsOf(judgement);
}

/** Rows `response:<aspect>` for an answer that should be a documented success. */
export function logResponseAspects(context: RunContext, family: Family, operationId: string, exchange: RecordedExchange | undefined, error: unknown): void {
  const judgement = judgeSuccess(family, operationId, exchange, error);
  if (typeof judgement === 'string') {
    context.log.add(operationId, 'response:status', 'fail', judgement);
    return;
  }
  for (const aspect of responseAspects) {
    context.log.judge(operationId, `response:${aspect}`, judgement[aspect], aspect === 'status' ? `HTTP ${exchange!.status}` : 'conforms');
  }
}

/**
 * One row for an answer that must have `status` and error `code` (from the family's catalog) and
 * otherwise conform to the contract.
 */
export function logExpectedError(
  context: RunContext,
  family: Family,
  operationId: string,
  check: string,
  exchange: RecordedExchange | undefined,
  expected: ExpectedAnswer,
): void {
  logExpectedAnswer(context, operationId, check, exchange, expected, (answer) => problemsOf(judgeResponse(family, operationId, answer)));
}

/**
 * The same for an answer no operation documents (a path or a method no operation has), judged as
 * an error of the family; the row is `operation` (an operationId or the family's contract).
 */
export function logExpectedUnroutedError(
  context: RunContext,
  family: Family,
  operation: string,
  check: string,
  exchange: RecordedExchange | undefined,
  expected: ExpectedAnswer,
): void {
  logExpectedAnswer(context, operation, check, exchange, expected, (answer) => judgeUnroutedError(family, answer));
}

interface ExpectedAnswer {
  status: number;
  code: string;
  extra?: (body: unknown) => string[];
  /** What was sent, when the check's name does not say it: leads the reason of a failure. */
  sent?: string;
}

function logExpectedAnswer(
  context: RunContext,
  operation: string,
  check: string,
  exchange: RecordedExchange | undefined,
  expected: ExpectedAnswer,
  judge: (answer: RecordedExchange) => string[],
): void {
  const sent = expected.sent === undefined ? '' : `sent ${expected.sent}: `;
  if (exchange === undefined) {
    context.log.add(operation, check, 'fail', `${sent}no answer`);
    return;
  }
  const problems: string[] = [];
  const code = errorCodeOf(exchange);
  if (exchange.status !== expected.status || code !== expected.code) {
    problems.push(`expected HTTP ${expected.status} ${expected.code}, got HTTP ${exchange.status}${code === undefined ? '' : ` ${code}`}`);
  }
  problems.push(...judge(exchange));
  if (problems.length === 0 && expected.extra !== undefined) problems.push(...expected.extra(parseBody(exchange)));
  context.log.judge(operation, check, problems.length === 0 ? [] : [`${sent}${problems.join('; ')}`], `HTTP ${exchange.status} ${expected.code}`);
}

export function parseBody(exchange: RecordedExchange): unknown {
  try {
    return JSON.parse(exchange.bodyText);
  } catch {
    return undefined;
  }
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
  return String(error);
}
