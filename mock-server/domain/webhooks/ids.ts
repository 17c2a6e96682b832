// Ids and secrets of the engine from the sandbox's seeded random source, so a seeded run
// produces the same ids and secrets every time.
import { createHash } from 'node:crypto';
import type { Random } from '../../random.js';

const hex = '0123456789abcdef';

/** A version-4 shaped uuid from the seeded source. */
export function randomUuid(random: Random): string {
  // 32 hex digits drawn straight into the uuid's character codes, dashes between, so the uuid is
  // one flat string, not a tree of slices and dashes (flat-string.ts). int(0, 15) draws a digit
  // as string(32, hex) drew each one: seeded uuids are the same as before.
  let at = 0;
  for (let digit = 0; digit < 32; digit += 1) {
    if (digit === 8 || digit === 12 || digit === 16 || digit === 20) uuidCodes[at++] = dash;
    uuidCodes[at++] = hex.charCodeAt(random.int(0, 15));
  }
  // Digit 12 is the version (4), digit 16 the variant (10xx): drawn over, as they always were.
  uuidCodes[versionAt] = versionFour;
  uuidCodes[variantAt] = hex.charCodeAt(8 + random.int(0, 3));
  return String.fromCharCode.apply(null, uuidCodes);
}

const uuidCodes: number[] = new Array<number>(36).fill(0);
const dash = '-'.charCodeAt(0);
const versionFour = '4'.charCodeAt(0);
/** Where digits 12 and 16 stand in the uuid, after the dashes before them. */
const versionAt = 12 + 2;
const variantAt = 16 + 3;

/** `whsec_` and 32 alphanumerics: the pattern of WebhookEndpointWithSecret.secret (v3 contract). */
export function newWebhookSecret(random: Random): string {
  return `whsec_${random.string(32)}`;
}

/** `sha256:` and the first 16 hex characters of the secret's SHA-256 (WebhookEndpoint.secret_fingerprint). */
export function secretFingerprint(secret: string): string {
  return `sha256:${createHash('sha256').update(secret).digest('hex').slice(0, 16)}`;
}
