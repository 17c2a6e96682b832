// What makes two requests "the same request" for an idempotency key: the method, the path with
// its query string as sent, and the SHA-256 of the raw body, whatever its media type (a
// multipart upload's bytes included; of nothing when there is none).
import { createHash } from 'node:crypto';

const emptyBodySha256 = createHash('sha256').update('').digest('hex');

export function requestFingerprint(method: string, target: string, bodySha256: string | undefined): string {
  return `${method.toUpperCase()} ${target} ${bodySha256 ?? emptyBodySha256}`;
}
