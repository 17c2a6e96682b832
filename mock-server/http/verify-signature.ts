// Request-signature checks shared by both families, driven by a contract's x-signature-scheme
// (exchangeV3SignatureScheme / depositV1SignatureScheme): which headers carry the signature,
// the timestamp window, the nonce rule and the canonical string. The callers map each failure
// to their family's error code.
import { timingSafeEqual } from 'node:crypto';
import { signatureOf, type SignatureScheme } from '../../generated/runtime/client-signing.js';

/** The signature headers as sent; undefined when one the scheme names is missing. */
export interface SignatureHeaders {
  key?: string;
  timestamp: string;
  nonce?: string;
  signature: string;
}

/** What the canonical string is built from. */
export interface SignedRequest {
  method: string;
  /** Path and query string exactly as sent (express's originalUrl). */
  target: string;
  /** Hex SHA-256 of the raw body, multipart uploads included (http/body.ts); undefined: of the empty string. */
  bodySha256: string | undefined;
}

export function signatureHeaders(scheme: SignatureScheme, get: (name: string) => string | undefined): SignatureHeaders | undefined {
  const timestamp = get(scheme.headers.timestamp);
  const signature = get(scheme.headers.signature);
  const nonce = scheme.headers.nonce === undefined ? undefined : get(scheme.headers.nonce);
  const key = scheme.headers.key === undefined ? undefined : get(scheme.headers.key);
  if (timestamp === undefined || signature === undefined) return undefined;
  if (scheme.headers.nonce !== undefined && nonce === undefined) return undefined;
  if (scheme.headers.key !== undefined && key === undefined) return undefined;
  return { timestamp, signature, ...(nonce !== undefined ? { nonce } : {}), ...(key !== undefined ? { key } : {}) };
}

/** True when the timestamp is whole Unix seconds within the scheme's window of `nowMs`. */
export function timestampInWindow(scheme: SignatureScheme, timestamp: string, nowMs: number): boolean {
  if (!/^\d{1,15}$/.test(timestamp)) return false;
  return Math.abs(nowMs / 1000 - Number(timestamp)) <= scheme.window_seconds;
}

/** True when the nonce follows the scheme's rule (any nonce when the scheme has none). */
export function nonceValid(scheme: SignatureScheme, nonce: string | undefined): boolean {
  if (scheme.nonce === undefined) return true;
  if (nonce === undefined) return false;
  const { min_length, max_length, pattern } = scheme.nonce;
  return nonce.length >= min_length && nonce.length <= max_length && new RegExp(pattern).test(nonce);
}

/** True when `headers.signature` is the scheme's HMAC of the canonical string; constant time. */
export function signatureMatches(scheme: SignatureScheme, secret: string, headers: SignatureHeaders, request: SignedRequest): boolean {
  const expected = Buffer.from(
    signatureOf(scheme, secret, { timestamp: headers.timestamp, nonce: headers.nonce, method: request.method, pathAndQuery: request.target, bodySha256: request.bodySha256 }),
    'hex',
  );
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(headers.signature)) return false;
  const given = Buffer.from(headers.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
