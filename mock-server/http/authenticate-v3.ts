// v3 private operations: the nine checks of the description (domain/accounts/authorize.ts) on
// the Bearer token, then, once the raw body is read, the HMAC signature of the contract's
// hmacSignature scheme with its timestamp window and single-use nonces.
import type { RequestHandler } from 'express';
import { exchangeV3SignatureScheme } from '../../generated/exchange-v3/client.js';
import { exchangeV3ErrorCodes, type ExchangeV3ErrorCode } from '../../generated/exchange-v3/contract-data.js';
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import { authorize } from '../domain/accounts/authorize.js';
import type { Sandbox } from '../sandbox.js';
import { HttpError } from './http-error.js';
import { bodySha256 } from './body.js';
import { requestLocals } from './locals.js';
import { nonceValid, signatureHeaders, signatureMatches, timestampInWindow } from './verify-signature.js';

const scheme = exchangeV3SignatureScheme;

/** Used nonces are kept for twice the window: a timestamp may be up to one window early or late. */
export const nonceTtlMs = 2 * scheme.window_seconds * 1000;

export function authenticateV3(sandbox: Sandbox, route: RouteDefinition): RequestHandler {
  const scope = route.scope ?? null;
  return (req, res, next) => {
    const now = sandbox.clock.now();
    const decision = authorize(
      {
        authorization: req.get('authorization'),
        callerIp: () => req.ip ?? req.socket.remoteAddress ?? '',
        scope,
        signed: req.get(scheme.headers.signature) !== undefined,
        now,
      },
      (token) => sandbox.keys.find(token),
    );
    if (!decision.ok) {
      next(failure(decision.code));
      return;
    }
    const locals = requestLocals(res);
    locals.route = route;
    locals.key = decision.key;
    sandbox.keys.used(decision.key, now);
    next();
  };
}

/**
 * Verifies the signature when the key requires one or the request carries one (a signature
 * sent voluntarily must be right too). Runs after the body is read: the body hash is signed.
 */
export function verifySignatureV3(sandbox: Sandbox): RequestHandler {
  return (req, res, next) => {
    const locals = requestLocals(res);
    const key = locals.key;
    if (key === undefined || (!key.hmacRequired && req.get(scheme.headers.signature) === undefined)) {
      next();
      return;
    }
    const headers = signatureHeaders(scheme, (name) => req.get(name));
    if (headers === undefined) {
      const names = Object.values(scheme.headers).join(', ');
      next(failure('signature_required', `Sign the request: ${names} are all required.`));
      return;
    }
    const nowMs = sandbox.clock.nowMs();
    if (!timestampInWindow(scheme, headers.timestamp, nowMs)) {
      next(failure('invalid_signature', `${scheme.headers.timestamp} must be Unix seconds within ${scheme.window_seconds} seconds of the server clock.`));
      return;
    }
    if (!nonceValid(scheme, headers.nonce)) {
      next(failure('invalid_signature', `${scheme.headers.nonce ?? 'The nonce'} breaks the nonce rule of the signature scheme.`));
      return;
    }
    if (!signatureMatches(scheme, key.hmacSecret, headers, { method: req.method, target: req.originalUrl, bodySha256: bodySha256(locals) })) {
      next(failure('invalid_signature'));
      return;
    }
    // Only a valid signature spends its nonce, so a forged request cannot burn a client's nonce.
    // One atomic claim: of the same nonce sent twice at once, exactly one passes.
    sandbox.usedNonces.claim(`${key.id}:${headers.nonce ?? ''}`, true, nowMs, nowMs + nonceTtlMs).then(
      (fresh) => next(fresh ? undefined : failure('signature_replay')),
      next,
    );
  };
}

function failure(code: ExchangeV3ErrorCode, message: string = exchangeV3ErrorCodes[code].condition): HttpError {
  return new HttpError(code, message);
}
