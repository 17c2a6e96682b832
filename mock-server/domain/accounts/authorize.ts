// The nine checks of the description (5.1), in its order, as one pure function: which error
// code (if any) a private v3 request gets before its handler runs. Signature verification
// itself (step 9, when a signature is present) is the http layer's, since it needs the raw body.
import { ipAllowed } from './ip-allowlist.js';
import type { ApiKey } from './api-keys.js';

export type AuthFailure =
  | 'authentication_required'
  | 'invalid_token'
  | 'client_inactive'
  | 'api_access_disabled'
  | 'token_expired'
  | 'ip_not_allowed'
  | 'scope_denied'
  | 'signature_required';

export interface AuthRequest {
  /** The Authorization header as sent. */
  authorization: string | undefined;
  /** The caller's address; asked only for a key with an IP allow-list (working it out through trusted proxies is not free). */
  callerIp: () => string;
  /** The operation's x-scope: a scope, or null for "any active key". */
  scope: string | null;
  /** Whether the request carries the signature headers of the HMAC scheme. */
  signed: boolean;
  now: Date;
}

export type AuthDecision =
  | { ok: true; key: ApiKey; mustVerifySignature: boolean }
  | { ok: false; code: AuthFailure; key?: ApiKey };

export function authorize(request: AuthRequest, findKey: (token: string) => ApiKey | undefined): AuthDecision {
  const token = bearerToken(request.authorization);
  if (token === undefined) return { ok: false, code: 'authentication_required' };                  // 1
  const key = findKey(token);
  if (key === undefined) return { ok: false, code: 'invalid_token' };                                // 2
  if (!key.client.active) return { ok: false, code: 'client_inactive', key };                       // 3
  if (!key.client.apiAccessEnabled) return { ok: false, code: 'api_access_disabled', key };         // 4
  if (!key.active) return { ok: false, code: 'invalid_token', key };                                 // 5: "wrong or disabled"
  if (key.expiresAt !== null && key.expiresAt <= request.now) return { ok: false, code: 'token_expired', key }; // 6
  if (key.ipAllowlist.length > 0 && !ipAllowed(request.callerIp(), key.ipAllowlist)) return { ok: false, code: 'ip_not_allowed', key }; // 7
  if (request.scope !== null && !key.scopes.includes(request.scope)) return { ok: false, code: 'scope_denied', key }; // 8
  if (key.hmacRequired && !request.signed) return { ok: false, code: 'signature_required', key };   // 9
  return { ok: true, key, mustVerifySignature: key.hmacRequired || request.signed };
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
