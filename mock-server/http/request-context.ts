// First middleware of every request: a request id (X-Request-Id header and meta.request_id),
// the client's correlation id when it keeps to the contract's header schema (else null; the
// validators then refuse it with 422), the family whose format the response takes, and the Date header from the sandbox
// clock (the server's time, as signatures are checked against it, even after an advance).
import type { RequestHandler } from 'express';
import { exchangeV3HeaderNames } from '../../generated/exchange-v3/contract-data.js';
import { exchangeV3RouterErrors } from '../../generated/exchange-v3/routes.js';
import type { Clock } from '../clock.js';
import { echoedCorrelationId, type RouteDefinition } from '../../generated/runtime/router-runtime.js';
import { initRequestLocals, requestLocals, type FamilyName } from './locals.js';
import { httpDate, newRequestId } from './response-stamps.js';

// The same names in every family (the v1 and control contracts reuse the v3 ones).
const requestIdHeader = exchangeV3HeaderNames.XRequestId;
const correlationHeader = exchangeV3RouterErrors.correlation;

export function requestContext(family: FamilyName, clock: Clock): RequestHandler {
  return (req, res, next) => {
    const requestId = newRequestId();
    initRequestLocals(res, {
      requestId,
      correlationId: echoedCorrelationId(correlationHeader === undefined ? undefined : req.get(correlationHeader.name), correlationHeader),
      family,
      startedAt: performance.now(),
    });
    res.setHeader(requestIdHeader, requestId);
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
