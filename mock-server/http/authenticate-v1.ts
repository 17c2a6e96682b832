// v1 operations: the site signature of the contract's `hmac` scheme (site key, timestamp,
// signature). The headers, the key and the timestamp are checked before the body is read; the
// signature, which covers the body hash, after.
import type { RequestHandler } from 'express';
import { depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { depositV1ErrorCodes, type DepositV1ErrorCode } from '../../generated/deposit-v1/contract-data.js';
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import type { Sandbox } from '../sandbox.js';
import { HttpError } from './http-error.js';
import { bodySha256 } from './body.js';
import { requestLocals } from './locals.js';
import { signatureHeaders, signatureMatches, timestampInWindow } from './verify-signature.js';

const scheme = depositV1SignatureScheme;

export function authenticateV1(sandbox: Sandbox, route: RouteDefinition): RequestHandler {
  return (req, res, next) => {
    const headers = signatureHeaders(scheme, (name) => req.get(name));
    if (headers === undefined) {
      next(failure('UNAUTHORIZED'));
      return;
    }
    const site = sandbox.sites.find(headers.key ?? '');
    if (site === undefined) {
      next(failure('INVALID_API_KEY'));
      return;
    }
    if (!timestampInWindow(scheme, headers.timestamp, sandbox.clock.nowMs())) {
      // The catalog's condition names the window by its field (window_seconds): told in seconds here.
      next(new HttpError('TIMESTAMP_OUT_OF_WINDOW', `${scheme.headers.timestamp} is more than ${scheme.window_seconds} seconds away from the server clock.`));
      return;
    }
    const locals = requestLocals(res);
    locals.route = route;
    locals.site = site;
    locals.signature = headers;
    next();
  };
}

export function verifySignatureV1(): RequestHandler {
  return (req, res, next) => {
    const locals = requestLocals(res);
    const headers = locals.signature;
    if (locals.site === undefined || headers === undefined) {
      next(failure('UNAUTHORIZED'));
      return;
    }
    const request = { method: req.method, target: req.originalUrl, bodySha256: bodySha256(locals) };
    next(signatureMatches(scheme, locals.site.apiSecret, headers, request) ? undefined : failure('INVALID_SIGNATURE'));
  };
}

function failure(code: DepositV1ErrorCode): HttpError {
  return new HttpError(code, depositV1ErrorCodes[code].condition);
}
