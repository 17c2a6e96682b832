// What handlers return: the family's success body (the v3 envelope around `result`, or v1's
// `{ data, meta? }`) with its status.
import type { HandlerContext, HandlerResponse } from '../../generated/runtime/router-runtime.js';
import type { Clock } from '../clock.js';
import { envelopeMeta } from './families.js';
import { requestLocals } from './locals.js';

export function respond(context: HandlerContext, clock: Clock, status: number, payload: unknown, meta?: Record<string, unknown>): HandlerResponse {
  if (requestLocals(context.res).family === 'v1') {
    return { status, body: meta === undefined ? { data: payload } : { data: payload, meta } };
  }
  return { status, body: { state: 0, message: 'OK', result: payload, meta: envelopeMeta(context.res, clock, meta) } };
}
