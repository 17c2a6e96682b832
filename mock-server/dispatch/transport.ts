// How an attempt reaches the receiver: a real HTTP POST through global fetch by default. The
// dispatcher takes any Transport, so fault injection or the built-in inbox can wrap or replace it.
import type { AttemptError, AttemptRequest } from '../store/records/webhook-records.js';

export interface TransportResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Transport = (request: AttemptRequest, signal: AbortSignal) => Promise<TransportResponse>;

export interface FetchTransportOptions {
  /** The receiver's body is kept up to this many characters in the delivery record. */
  maxResponseBodyChars?: number;
}

export function fetchTransport(options: FetchTransportOptions = {}): Transport {
  const limit = options.maxResponseBodyChars ?? 64 * 1024;
  return async (request, signal) => {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal,
      // A redirect is not a 2xx answer: it fails the attempt rather than being followed.
      redirect: 'manual',
    });
    const text = await response.text();
    return { status: response.status, headers: Object.fromEntries(response.headers), body: text.slice(0, limit) };
  };
}

/** The delivery record's `error` for an attempt that got no HTTP answer. */
export function attemptError(error: unknown): AttemptError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') return { code: 'timeout', message: 'no answer within the attempt timeout' };
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const code = errorCode(cause) ?? errorCode(error) ?? '';
  const message = cause?.message ?? (error instanceof Error ? error.message : String(error));
  if (code === 'ECONNREFUSED') return { code: 'connection_refused', message };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'dns_error', message };
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code)) return { code: 'tls_error', message };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') return { code: 'connection_reset', message };
  if (code === 'ERR_INVALID_URL' || /invalid url/i.test(message)) return { code: 'invalid_url', message };
  return { code: 'network_error', message };
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
