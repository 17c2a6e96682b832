// The pipeline step of the injected API faults (control injectFault): run once the platform has
// admitted a call (authenticated, within its limits, signature checked), before idempotency and
// the operation. It waits the fault's latency in real time, then answers the fault's error in the
// family's envelope, destroys the connection, or lets the call go on to the operation.
import type { RequestHandler } from 'express';
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import { HttpError } from '../http/http-error.js';
import { limitHeaders } from '../http/limit-headers.js';
import { requestLocals } from '../http/locals.js';
import type { FaultAction, OperationFaults } from './operation-faults.js';

export function faultStep(faults: OperationFaults): (route: RouteDefinition) => RequestHandler {
  return (route) => (req, res, next) => {
    const locals = requestLocals(res);
    const action = faults.take({ operation: route.operationId, keyId: locals.key?.id, siteId: locals.site?.id });
    if (action === null) {
      next();
      return;
    }
    const act = (): void => {
      if (action.reset) {
        // A TCP reset, not a clean close: the client sees ECONNRESET, as from a crashed peer.
        req.socket.resetAndDestroy();
      } else if (action.error !== null) {
        locals.faultAnswered = true;
        next(errorOf(action.error));
      } else {
        next();
      }
    };
    // The operation runs after the delay even if the client gave up meanwhile, as on a late server.
    if (action.delayMs === 0) act();
    else setTimeout(act, action.delayMs).unref();
  };
}

function errorOf(error: NonNullable<FaultAction['error']>): HttpError {
  const headers = error.retryAfterSeconds === undefined ? undefined : { [limitHeaders.retryAfter]: String(error.retryAfterSeconds) };
  return new HttpError(error.code, error.message, error.details, headers);
}
