// Ids and secrets of the engine from the sandbox's seeded random source, so a seeded run
// produces the same ids and secrets every time.
import { createHash } from 'node:crypto';
import type { Random } from '../../random.js';

const hex = '0123456789abcdef';

/** A version-4 shaped uuid from the seeded source. */
export function randomUuid(random: Random): string {
  const s = random.string(32, hex);
  const variant = hex.charAt(8 + random.int(0, 3)); // 10xx
  // Digit 12 is the version (4), digit 16 the variant.
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-${variant}${s.slice(17, 20)}-${s.slice(20)}`;
}

/** `whsec_` and 32 alphanumerics: the pattern of WebhookEndpointWithSecret.secret (v3 contract). */
export function newWebhookSecret(random: Random): string {
  return `whsec_${random.string(32)}`;
}

/** `sha256:` and the first 16 hex characters of the secret's SHA-256 (WebhookEndpoint.secret_fingerprint). */
export function secretFingerprint(secret: string): string {
  return `sha256:${createHash('sha256').update(secret).digest('hex').slice(0, 16)}`;
}
