// Ids and secrets of the engine from the sandbox's seeded random source, so a seeded run
// produces the same ids and secrets every time.
import { createHash } from 'node:crypto';
import type { Random } from '../../random.js';

const hex = '0123456789abcdef';

/** A version-4 shaped uuid from the seeded source. */
export function randomUuid(random: Random): string {
  const digits = random.string(32, hex);
  const variant = hex.charCodeAt(8 + random.int(0, 3)); // 10xx
  // Digit 12 is the version (4), digit 16 the variant. Assembled as character codes, so the uuid is
  // one flat string, not a tree of slices and dashes (flat-string.ts).
  let at = 0;
  for (let i = 0; i < 32; i += 1) {
    if (i === 8 || i === 12 || i === 16 || i === 20) uuidCodes[at++] = dash;
    uuidCodes[at++] = i === 12 ? versionFour : i === 16 ? variant : digits.charCodeAt(i);
  }
  return String.fromCharCode.apply(null, uuidCodes);
}

const uuidCodes: number[] = new Array<number>(36).fill(0);
const dash = '-'.charCodeAt(0);
const versionFour = '4'.charCodeAt(0);

/** `whsec_` and 32 alphanumerics: the pattern of WebhookEndpointWithSecret.secret (v3 contract). */
export function newWebhookSecret(random: Random): string {
  return `whsec_${random.string(32)}`;
}

/** `sha256:` and the first 16 hex characters of the secret's SHA-256 (WebhookEndpoint.secret_fingerprint). */
export function secretFingerprint(secret: string): string {
  return `sha256:${createHash('sha256').update(secret).digest('hex').slice(0, 16)}`;
}
