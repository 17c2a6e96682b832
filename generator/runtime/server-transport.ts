// What a server of a contract answers before a request reaches an operation, in the contract's
// envelope with the catalog's codes (ContractErrors.transport): a body of another content type
// than its operation takes, a JSON body that does not parse or exceeds the contract's body limit
// (the body parser, before the router), and, under the base path, a path no operation has, a
// method its path does not take, a path parameter that does not decode or a handler that threw
// (after the router, which passes them on).
// These are pieces an app mounts around the router, not steps of the router: a server with a
// request pipeline of its own (the kit's mock reads bodies in its route middleware, after its
// correlation-id and size checks) mounts the router alone and keeps its own order.
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { nestsDeeperThan } from './json-depth.js';
import { catalogError, isJsonMediaType, RouteMatcher, type ContractErrors, type RouteDefinition, type TransportFailure } from './router-runtime.js';
import { keepRawBody } from './server-security.js';

/** The refusals of express.json by their HTTP status (body-parser's `status` on its errors). */
const parserFailures: Readonly<Record<number, TransportFailure>> = { 400: 'malformed-body', 413: 'payload-too-large', 415: 'unsupported-media-type' };

/**
 * The body parser of a contract's operations, mounted before the router: a body of another
 * Content-Type than its operation takes is refused (a JSON operation takes any JSON type); a JSON
 * operation's body is parsed up to the contract's body limit, keeping the raw body (signatures
 * cover it), and a body without a Content-Type is read as JSON, as the mock reads it, then refused
 * when it nests deeper than the contract's `info.x-json-depth-limit`; a body no
 * operation takes (no route, or an operation without one) is left unread. Every refusal is
 * answered in the envelope.
 */
export function jsonBodyParser(routes: readonly RouteDefinition[], errors: ContractErrors): RequestHandler[] {
  const matcher = new RouteMatcher(routes);
  // Which bodies to parse is decided below, per operation, so the parser takes any type.
  const parse = express.json({ verify: keepRawBody, type: () => true, ...(errors.bodyLimitBytes === undefined ? {} : { limit: errors.bodyLimitBytes }) });
  const read: RequestHandler = (req, res, next) => {
    const taken = bodySent(req) ? takenMediaType(matcher, req) : undefined;
    if (taken === undefined) return next();
    if (req.headers['content-type'] !== undefined && !takes(taken, req)) {
      const { status, body } = catalogError(errors, errors.transport['unsupported-media-type'], { req, res }, `The body must be ${taken}.`);
      res.status(status).json(body);
      return;
    }
    if (isJsonMediaType(taken)) parse(req, res, (error?: unknown) => (error === undefined ? refuseTooDeep(req, res, next) : next(error)));
    else next();
  };
  // The contract bounds how deep a body nests (a deeper one would fail to serialise wherever it
  // is shown again), as the mock refuses it.
  const refuseTooDeep: RequestHandler = (req, res, next) => {
    const raw = (req as Request & { rawBody?: Buffer }).rawBody;
    const limit = errors.jsonDepthLimit;
    if (limit === undefined || raw === undefined || !nestsDeeperThan(raw.toString('utf8'), limit)) return next();
    const { status, body } = catalogError(errors, errors.transport['malformed-body'], { req, res }, `The request body nests arrays and objects more than ${limit} levels deep.`);
    res.status(status).json(body);
  };
  const refusals: ErrorRequestHandler = (error: { status?: unknown; message?: unknown }, req, res, next) => {
    const failure = typeof error?.status === 'number' ? parserFailures[error.status] : undefined;
    if (failure === undefined) return next(error);
    const { status, body } = catalogError(errors, errors.transport[failure], { req, res }, String(error.message ?? 'The body cannot be read.'));
    res.status(status).json(body);
  };
  return [read, refusals as unknown as RequestHandler];
}

/**
 * Whether the request's Content-Type is one its operation takes: for a JSON operation any JSON
 * type, `application/json` with any parameters or a `+json` type (`application/merge-patch+json`),
 * as the mock reads them; otherwise the operation's own type.
 */
function takes(taken: string, req: Request): boolean {
  return (isJsonMediaType(taken) ? req.is(['application/json', '+json']) : req.is(taken)) !== false;
}

/** A request carries a body when it announces one: chunked, or a Content-Length above 0. */
function bodySent(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * The media type the matched operation takes as its body; undefined when no operation matches
 * (the router and the unmatched handler answer) or it takes none.
 */
function takenMediaType(matcher: RouteMatcher, req: Request): string | undefined {
  try {
    return matcher.match(req.method, req.url)?.route.body?.contentType;
  } catch {
    return undefined; // a path parameter that is not valid percent-encoding: the router refuses it
  }
}

/**
 * Answers what the router passed on: a path some operation has with another method is a 405 with
 * `Allow`, any other a 404, a path parameter that is not valid percent-encoding (the router's
 * URIError) a 400, as the mock answers it, and any other error (a handler that threw) the
 * catalog's 500, logged to stderr. Mount it after the router, at the same base path.
 */
export function unmatchedRequests(routes: readonly RouteDefinition[], errors: ContractErrors): RequestHandler[] {
  const matcher = new RouteMatcher(routes);
  const methods = [...new Set(routes.map((route) => route.method.toUpperCase()))];
  const unmatched: RequestHandler = (req, res) => {
    const allowed = methods.filter((method) => pathOf(matcher, method, req.url));
    if (allowed.length === 0) {
      const { status, body } = catalogError(errors, errors.transport['not-found'], { req, res }, `No operation has the path ${req.path}.`);
      res.status(status).json(body);
      return;
    }
    res.setHeader('Allow', allowed.join(', '));
    const { status, body } = catalogError(errors, errors.transport['method-not-allowed'], { req, res }, `${req.path} does not take ${req.method}.`);
    res.status(status).json(body);
  };
  const undecodablePath: ErrorRequestHandler = (error, req, res, next) => {
    if (!(error instanceof URIError)) return next(error);
    const { status, body } = catalogError(errors, errors.transport['malformed-path'], { req, res }, 'The request path is not valid percent-encoding.');
    res.status(status).json(body);
  };
  // Last: an error a handler threw, which express would answer with an HTML page and its stack.
  const failed: ErrorRequestHandler = (error, req, res, next) => {
    if (res.headersSent) return next(error); // express ends the connection
    console.error(error);
    const { status, body } = catalogError(errors, errors.transport['internal-error'], { req, res }, 'The server failed to answer; its log has the cause.');
    res.status(status).json(body);
  };
  return [unmatched, undecodablePath as unknown as RequestHandler, failed as unknown as RequestHandler];
}

/**
 * Whether an operation of `method` has the URL's path. A parameter that does not decode still
 * makes the path that operation's (its method is allowed): the mock answers such a request with
 * another method 405, as it does any other.
 */
function pathOf(matcher: RouteMatcher, method: string, url: string): boolean {
  try {
    return matcher.match(method, url) !== undefined;
  } catch {
    return true;
  }
}
