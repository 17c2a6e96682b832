// What makes two requests "the same request" for an idempotency key: the method, the path with
// its query string as sent, and the SHA-256 of the raw body (of nothing when there is none;
// multipart bodies are not read before the handler, so their content is not part of it).
import { createHash } from 'node:crypto';

export function requestFingerprint(method: string, target: string, rawBody: Uint8Array | undefined): string {
  const bodyHash = createHash('sha256').update(rawBody ?? new Uint8Array()).digest('hex');
  return `${method.toUpperCase()} ${target} ${bodyHash}`;
}
