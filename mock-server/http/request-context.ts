// First middleware of every request: a request id (X-Request-Id header and meta.request_id),
// the client's correlation id when valid (1..128 characters; the validators reject longer ones
// with 422), the family whose format the response takes, and the Date header from the sandbox
// clock (the server's time, as signatures are checked against it, even after an advance).
import type { RequestHandler } from 'express';
import { exchangeV3HeaderNames, exchangeV3HeaderParameters } from '../../generated/exchange-v3/contract-data.js';
import type { Clock } from '../clock.js';
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import { initRequestLocals, requestLocals, type FamilyName } from './locals.js';
import { httpDate, newRequestId } from './response-stamps.js';

// The same names in every family (the v1 and control contracts reuse the v3 ones).
const headers = { requestId: exchangeV3HeaderNames.XRequestId, correlationId: exchangeV3HeaderParameters.CorrelationId };

export function requestContext(family: FamilyName, clock: Clock): RequestHandler {
  return (req, res, next) => {
    const requestId = newRequestId();
    const correlation = req.get(headers.correlationId);
    initRequestLocals(res, {
      requestId,
      correlationId: correlation !== undefined && correlation.length >= 1 && correlation.length <= 128 ? correlation : null,
      family,
      startedAt: performance.now(),
    });
    res.setHeader(headers.requestId, requestId);
    res.setHeader('Date', httpDate(clock.nowMs()));
    next();
  };
}

/** First middleware of a matched route: later steps (auth, strict mode) read the route. */
export function rememberRoute(route: RouteDefinition): RequestHandler {
  return (_req, res, next) => {
    requestLocals(res).route = route;
    next();
  };
}
