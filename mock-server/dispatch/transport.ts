// How an attempt reaches the receiver: a Transport. The real one is http-transport.ts (a POST
// over node:http/https within the egress policy); fault injection wraps it. attemptError turns
// a failure without an HTTP answer into the delivery record's error.
import type { AttemptError, AttemptRequest } from '../store/records/webhook-records.js';

export interface TransportResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Transport = (request: AttemptRequest, signal: AbortSignal) => Promise<TransportResponse>;

/** Thrown when the egress policy refuses a target; recorded as `egress_denied`. */
export class EgressDeniedError extends Error {
  readonly code = 'EGRESS_DENIED';
}

/** Thrown when the receiver's answer cannot be recorded as one (e.g. a status no HTTP answer has); recorded as `invalid_response`. */
export class InvalidAnswerError extends Error {
  readonly code = 'INVALID_ANSWER';
}

/**
 * `work`'s outcome, or the signal's reason (a TimeoutError) as soon as it aborts: an attempt ends
 * by its timeout even when what it waits for cannot be cancelled. What `work` does later is dropped.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The delivery record's `error` for an attempt that got no HTTP answer. */
export function attemptError(error: unknown): AttemptError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return { code: 'timeout', message: 'no answer within the attempt timeout' };
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const code = errorCode(cause) ?? errorCode(error) ?? '';
  const message = cause?.message ?? (error instanceof Error ? error.message : String(error));
  if (code === 'EGRESS_DENIED') return { code: 'egress_denied', message };
  // An answer node's parser refused (HPE_*: a header flood, bytes that are not HTTP) or one the record cannot show.
  if (code === 'INVALID_ANSWER' || code.startsWith('HPE_')) return { code: 'invalid_response', message };
  if (code === 'ECONNREFUSED') return { code: 'connection_refused', message };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return { code: 'dns_error', message };
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code)) return { code: 'tls_error', message };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') return { code: 'connection_reset', message };
  if (code === 'ERR_INVALID_URL' || /invalid url/i.test(message)) return { code: 'invalid_url', message };
  return { code: 'network_error', message };
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
