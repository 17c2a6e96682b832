// Idempotency of an unsafe operation (x-idempotency): the same key with the same body answers as
// the first time (same status, same result), the same key with another body is refused with
// the catalog's conflict code.
import { randomUUID } from 'node:crypto';
import type { Family } from '../contract/families.js';
import { routeOf } from '../contract/families.js';
import type { RunContext } from '../context.js';
import { isRecord } from '../judge/response.js';
import type { RecordedExchange } from '../http/exchange-log.js';
import { logExpectedError, parseBody } from './judge-call.js';

export interface IdempotentCall {
  family: Family;
  operationId: string;
  path?: Record<string, string>;
  body: unknown;
  /** The same request with one field changed. */
  changedBody: unknown;
}

/** Sends the call with a fresh key, then checks replay and conflict; returns the first answer. */
export async function sendIdempotent(context: RunContext, call: IdempotentCall): Promise<RecordedExchange | undefined> {
  const { family, operationId } = call;
  const header = routeOf(family, operationId).idempotency?.header;
  const client = context.clientOf(family.name)!;
  const spec = context.specOf(family.name, operationId);
  const key = `conformance-${randomUUID()}`;
  const send = (body: unknown) => context.call(() => client.runtime.request(spec, { path: call.path ?? {}, body, headers: header === undefined ? {} : { [header]: key } }));

  const first = (await send(call.body)).exchange;
  if (header === undefined || first === undefined || first.status >= 300) return first;

  const replay = (await send(call.body)).exchange;
  const problems = replay === undefined ? ['no answer'] : replayProblems(family, first, replay);
  context.log.judge(operationId, 'idempotency:replay', problems, `the same ${header} answered HTTP ${first.status} with the same result`);

  const conflict = (await send(call.changedBody)).exchange;
  const code = family.codes.idempotencyConflict;
  logExpectedError(context, family, operationId, 'idempotency:conflict', conflict, { status: family.errorCodes[code]!.status, code });
  return first;
}

function replayProblems(family: Family, first: RecordedExchange, replay: RecordedExchange): string[] {
  if (replay.status !== first.status) return [`the replay answered HTTP ${replay.status}, the first call ${first.status}`];
  const payload = (exchange: RecordedExchange): unknown => {
    const body = parseBody(exchange);
    return isRecord(body) ? (family.errorFormat === 'v3-envelope' ? body.result : body.data) : body;
  };
  return JSON.stringify(payload(first)) === JSON.stringify(payload(replay)) ? [] : ['the replay answered another result than the first call'];
}
