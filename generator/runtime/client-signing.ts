// Request signing with a contract's `x-signature-scheme`, and verification of webhook
// signatures (`x-webhook-signature`: hex HMAC-SHA256 of the raw body).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signs one attempt of a request by setting headers. Runs after every other header is set,
 * once per attempt. `body` is exactly what is sent: JSON text, or the bytes of a multipart form
 * (boundary and part headers included); undefined when there is no body.
 */
export type RequestSigner = (request: {
  method: string;
  url: URL;
  headers: Headers;
  body: string | Uint8Array | undefined;
}) => void | Promise<void>;

/** A contract's `x-signature-scheme`, as data. */
export interface SignatureScheme {
  algorithm: 'hmac-sha256';
  encoding: 'hex';
  headers: { key?: string; timestamp: string; nonce?: string; signature: string };
  canonical: ('timestamp' | 'nonce' | 'method' | 'path' | 'body_sha256')[];
  separator: string;
  window_seconds: number;
  nonce?: { min_length: number; max_length: number; pattern: string };
}

export interface SigningClock {
  /** Milliseconds since the epoch; Date.now by default. */
  now?: (() => number) | undefined;
  /** A fresh nonce; 24 url-safe random characters by default. */
  nonce?: (() => string) | undefined;
}

/**
 * A signer for `scheme`: the canonical parts joined by the separator, signed with the secret.
 * `body_sha256` is the hash of the bytes sent, whatever the media type (multipart included).
 */
export function createHmacSigner(
  scheme: SignatureScheme,
  credentials: { secret: string; key?: string | undefined },
  clock: SigningClock = {},
): RequestSigner {
  const nonceHeader = scheme.headers.nonce;
  if (scheme.canonical.includes('nonce') && nonceHeader === undefined) {
    throw new TypeError('the signature scheme signs a nonce but names no nonce header');
  }
  const now = clock.now ?? Date.now;
  const makeNonce = clock.nonce ?? randomNonce;
  const nonceRule = scheme.nonce === undefined ? undefined : { ...scheme.nonce, regex: new RegExp(scheme.nonce.pattern) };

  return ({ method, url, headers, body }) => {
    const timestamp = String(Math.floor(now() / 1000));
    const nonce = nonceHeader === undefined ? undefined : makeNonce();
    // A nonce the server would reject is a configuration error: fail before sending.
    if (nonce !== undefined && nonceRule !== undefined) {
      const { min_length, max_length, regex } = nonceRule;
      if (nonce.length < min_length || nonce.length > max_length || !regex.test(nonce)) {
        throw new TypeError(`nonce ${JSON.stringify(nonce)} breaks the scheme's nonce rule`);
      }
    }
    const signature = signatureOf(scheme, credentials.secret, { timestamp, nonce, method, pathAndQuery: url.pathname + url.search, body });

    headers.set(scheme.headers.timestamp, timestamp);
    if (nonceHeader !== undefined && nonce !== undefined) headers.set(nonceHeader, nonce);
    if (scheme.headers.key !== undefined && credentials.key !== undefined) headers.set(scheme.headers.key, credentials.key);
    headers.set(scheme.headers.signature, signature);
  };
}

/** What a request's signature covers, as sent. */
export interface SignedParts {
  timestamp: string;
  nonce: string | undefined;
  method: string;
  /** The path with its query string, exactly as sent. */
  pathAndQuery: string;
  /** The raw body bytes; undefined when there is none. */
  body?: string | Uint8Array | undefined;
  /** The hex SHA-256 of the raw body when it is already known (a streamed upload); else `body` is hashed. */
  bodySha256?: string | undefined;
}

/**
 * The scheme's signature of a request: its canonical parts joined by the separator, HMAC'd with
 * the secret. Signing (the clients) and verification (the generated servers) share it.
 */
export function signatureOf(scheme: SignatureScheme, secret: string, request: SignedParts): string {
  const parts = scheme.canonical.map((part) => {
    switch (part) {
      case 'timestamp':
        return request.timestamp;
      case 'nonce':
        return request.nonce ?? '';
      case 'method':
        return request.method.toUpperCase();
      case 'path':
        return request.pathAndQuery;
      case 'body_sha256':
        return request.bodySha256 ?? createHash('sha256').update(request.body ?? '').digest('hex');
    }
  });
  return createHmac('sha256', secret).update(parts.join(scheme.separator)).digest('hex');
}

/** 18 random bytes in base64url: 24 characters of [A-Za-z0-9_-]. */
function randomNonce(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * True when `signature` is the hex HMAC-SHA256 of the raw body bytes under `secret`. Compares
 * in constant time; false (never an exception) for a signature of the wrong length or not hex.
 */
export function verifyWebhookSignature(rawBody: string | Uint8Array, signature: string, secret: string): boolean {
  try {
    if (typeof signature !== 'string' || !/^(?:[0-9a-fA-F]{2})+$/.test(signature)) return false;
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  } catch {
    return false;
  }
}
