// The one place failures become responses: an HttpError in its family's format and catalog
// status (body.ts turns every failure while reading a body into one); anything else as a 500
// internal_error without a stack trace (logged to stderr; a store whose hold ended or whose server
// went away as store failures are, store/report-store-failure.ts).
import type { ErrorRequestHandler } from 'express';
import type { Clock } from '../clock.js';
import { families, sendError } from './families.js';
import { HttpError } from './http-error.js';
import { requestLocals } from './locals.js';
import { reportStoreFailure } from '../store/report-store-failure.js';

/** Real time: what stamps an error answer that could not be rendered on the sandbox clock. */
const wallClock: Clock = { now: () => new Date(), nowMs: () => Date.now() };

export function errorHandler(clock: Clock): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const codes = families[requestLocals(res).family].codes;
    try {
      sendError(res, clock, toHttpError(error, codes));
    } catch (failure) {
      // This handler must not throw: express would answer with its own HTML page (file paths in
      // its stack trace), and the front door (front-door.ts) has no caller to catch it, so the
      // process would end. Whatever failed while rendering, the answer is the family's 500.
      reportStoreFailure('mock-server: an error answer could not be rendered', failure);
      if (res.headersSent) next(failure);
      else sendError(res, wallClock, new HttpError(codes.internal, 'Internal error.'));
    }
  };
}

function toHttpError(error: unknown, codes: (typeof families)['v3']['codes']): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof URIError) return new HttpError(codes.badRequest, 'The request path is not valid percent-encoding.'); // router's decodeParam
  reportStoreFailure('mock-server: unexpected error', error);
  return new HttpError(codes.internal, 'Internal error.');
}
