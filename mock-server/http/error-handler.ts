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

export function errorHandler(clock: Clock): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const codes = families[requestLocals(res).family].codes;
    sendError(res, clock, toHttpError(error, codes));
  };
}

function toHttpError(error: unknown, codes: (typeof families)['v3']['codes']): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof URIError) return new HttpError(codes.badRequest, 'The request path is not valid percent-encoding.'); // router's decodeParam
  reportStoreFailure('mock-server: unexpected error', error);
  return new HttpError(codes.internal, 'Internal error.');
}
