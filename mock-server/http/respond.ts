// What handlers return: the family's success body (the v3 envelope around `result`, or v1's
// `{ data, meta? }`) with its status.
import type { HandlerContext, HandlerResponse } from '../../generated/runtime/router-runtime.js';
import type { Clock } from '../clock.js';
import { successOf } from './families.js';

export function respond(context: HandlerContext, clock: Clock, status: number, payload: unknown, meta?: Record<string, unknown>): HandlerResponse {
  return { status, body: successOf(context.res, clock, payload, meta) };
}
