// What a server of a contract answers before a request reaches an operation, in the contract's
// envelope with the catalog's codes (ContractErrors.transport): a JSON body that does not parse or
// exceeds the contract's body limit (the body parser), and, under the base path, a path no
// operation has or a method its path does not take (after the router, which passes them on).
// The router itself refuses a body of another content type than its operation takes.
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { catalogError, RouteMatcher, type ContractErrors, type RouteDefinition, type TransportFailure } from './router-runtime.js';
import { keepRawBody } from './server-security.js';

/** The refusals of express.json by their HTTP status (body-parser's `status` on its errors). */
const parserFailures: Readonly<Record<number, TransportFailure>> = { 400: 'malformed-body', 413: 'payload-too-large', 415: 'unsupported-media-type' };

/**
 * express.json up to the contract's body limit, keeping the raw body (signatures cover it), and
 * its refusals answered in the envelope. Mount it before the router.
 */
export function jsonBodyParser(errors: ContractErrors): RequestHandler[] {
  const refusals: ErrorRequestHandler = (error: { status?: unknown; message?: unknown }, req, res, next) => {
    const failure = typeof error?.status === 'number' ? parserFailures[error.status] : undefined;
    if (failure === undefined) return next(error);
    const { status, body } = catalogError(errors, errors.transport[failure], { req, res }, String(error.message ?? 'The body cannot be read.'));
    res.status(status).json(body);
  };
  const parser = express.json({ verify: keepRawBody, ...(errors.bodyLimitBytes === undefined ? {} : { limit: errors.bodyLimitBytes }) });
  return [parser, refusals as unknown as RequestHandler];
}

/**
 * Answers what the router passed on: a path some operation has with another method is a 405 with
 * `Allow`, any other a 404. Mount it after the router, at the same base path.
 */
export function unmatchedRequests(routes: readonly RouteDefinition[], errors: ContractErrors): RequestHandler {
  const matcher = new RouteMatcher(routes);
  const methods = [...new Set(routes.map((route) => route.method.toUpperCase()))];
  return (req, res) => {
    const allowed = methods.filter((method) => matcher.match(method, req.url) !== undefined);
    if (allowed.length === 0) {
      const { status, body } = catalogError(errors, errors.transport['not-found'], { req, res }, `No operation has the path ${req.path}.`);
      res.status(status).json(body);
      return;
    }
    res.setHeader('Allow', allowed.join(', '));
    const { status, body } = catalogError(errors, errors.transport['method-not-allowed'], { req, res }, `${req.path} does not take ${req.method}.`);
    res.status(status).json(body);
  };
}
