// The bodies a server of a contract answers with, in the contract's format (`info.x-error-format`):
// the v3 envelope (`state`, `message`, `result`, `error`, `meta`) or the v1 bodies (`{ data, meta? }`
// and `{ error, requestId }`). Both the generated routers (validation failures, operations
// without a handler) and the kit's mock render through these, so they cannot drift apart.
import type { ErrorFormat } from './client-errors.js';
import { fieldErrors } from './field-errors.js';

/** What identifies one answer: the request id (also the X-Request-Id header), the correlation id and the time. */
export interface ResponseIds {
  requestId: string;
  /** The caller's X-Correlation-Id; null when none was sent. */
  correlationId: string | null;
  /** ISO 8601. */
  timestamp: string;
}

/** A success body: the v3 envelope around `result` (`meta` merged into the envelope's), or v1's `{ data, meta? }`. */
export function successBody(format: ErrorFormat, ids: ResponseIds, result: unknown, meta?: Record<string, unknown>): Record<string, unknown> {
  if (format === 'v1') return meta === undefined ? { data: result } : { data: result, meta };
  return { state: 0, message: 'OK', result, meta: envelopeMeta(ids, meta) };
}

/**
 * An error body with a code of the contract's catalog. `details` are keyed `location.field`
 * (`query.per_page`, as the routers' validation produces them) and answered by field name with
 * `locations` (field-errors.ts).
 */
export function errorBody(
  format: ErrorFormat,
  ids: ResponseIds,
  code: string,
  message: string,
  details?: Readonly<Record<string, readonly string[]>>,
): Record<string, unknown> {
  const fields = details === undefined ? {} : answeredDetails(details);
  if (format === 'v1') return { error: { code, message, ...fields }, requestId: ids.requestId };
  return { state: 1, message, result: null, error: { code, ...fields }, meta: envelopeMeta(ids) };
}

function envelopeMeta(ids: ResponseIds, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { request_id: ids.requestId, correlation_id: ids.correlationId, timestamp: ids.timestamp, ...extra };
}

function answeredDetails(qualified: Readonly<Record<string, readonly string[]>>): { details: Record<string, string[]>; locations?: Record<string, string> } {
  const { details, locations } = fieldErrors(qualified);
  return Object.keys(locations).length > 0 ? { details, locations } : { details };
}
