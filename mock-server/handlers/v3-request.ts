// What a v3 domain handler reads off its request: the authenticated client, and the ids of the
// request that cause an event (carried on webhook events so a receiver can correlate them).
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import { requestLocals } from '../http/locals.js';

/** The authenticated key's client id (the owner of orders, files, verifications, endpoints). */
export function clientOf(context: HandlerContext): string {
  const key = requestLocals(context.res).key;
  if (key === undefined) throw new Error(`${context.route.operationId} ran without an authenticated key`);
  return String(key.client.id);
}

export interface CausingRequest {
  requestId: string;
  correlationId: string | null;
  idempotencyKey: string | null;
}

/** The ids of the request that causes an event: request id, X-Correlation-Id, Idempotency-Key. */
export function causingRequest(context: HandlerContext): CausingRequest {
  const locals = requestLocals(context.res);
  const header = context.route.idempotency?.header;
  return { requestId: locals.requestId, correlationId: locals.correlationId, idempotencyKey: (header && context.req.get(header)) || null };
}
