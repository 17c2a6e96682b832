// The hand-written runtime of the generated express routers (copied into generated/runtime/).
// A generated routes.ts holds the contract's route table and hands it here with its validators
// and the user's handlers: this module orders the routes (literal path segments before
// parameters), dispatches each request to its operation through a table compiled once (not
// express's per-route matching: see the dispatch section), parses it (path, query from the raw
// URL, headers, the body the app's JSON middleware parsed), validates it and calls the handler.
// It installs no body parser: the app does, so the app controls limits. An operation without a
// handler answers 501 in the contract's envelope (after the route middleware, so auth still
// applies), so a server can be built one operation at a time.
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ErrorFormat } from './client-errors.js';
import { errorBody, successBody, type ResponseIds } from './server-envelope.js';
import { jsonChunk } from './serialized-json.js';
import { withoutSchemaWrappers, type UnionChoices } from './union-errors.js';

/** The scalar type a parameter's raw string is coerced to (for arrays: the items' type). */
export type ScalarKind = 'string' | 'integer' | 'number' | 'boolean';

export type RouteMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options' | 'trace';

export interface ParameterDefinition {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  kind: ScalarKind;
  array: boolean;
  /** Travels as one comma-separated value (`filter[status]=paid,completed`). */
  commaSeparated: boolean;
}

/** One operation of a contract as the router and the app's middleware (auth, idempotency) see it. */
export interface RouteDefinition {
  operationId: string;
  method: RouteMethod;
  /** As written in the contract, relative to the server: `/private/orders/{order}`. */
  path: string;
  tag: string;
  /** Required scope; null: any active key; undefined: no scope (public, or another scheme). */
  scope: string | null | undefined;
  /** Names of the security schemes of each accepted alternative; empty: public. */
  security: readonly (readonly string[])[];
  parameters: readonly ParameterDefinition[];
  body: { contentType: string; required: boolean } | undefined;
  idempotency: { header: string; windowSeconds: number } | undefined;
  pagination: { items: string; modes: readonly string[] } | undefined;
}

/** The part of an ajv error this runtime reads. */
export interface ValidationErrorObject {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

export interface RequestValidator {
  (data: unknown): boolean;
  errors?: readonly ValidationErrorObject[] | null;
  /** Its oneOf and anyOf choices, from the contract (generated validators carry them). */
  readonly unions?: readonly UnionChoices[];
}

/** The validators of one operation, as generated validators.js exports them. */
// A part the operation does not have is absent or undefined (the generated tables spell it out).
export interface OperationValidators {
  path?: RequestValidator | undefined;
  query?: RequestValidator | undefined;
  headers?: RequestValidator | undefined;
  body?: RequestValidator | undefined;
}

/**
 * Where and which field (`query.per_page`, `path.order`, `headers.x-correlation-id`,
 * `body.amount`) → messages. An answer names fields without the location (fieldErrors).
 */
export type ValidationDetails = Record<string, string[]>;

/** What a handler sees of a request, typed per operation by the generated routes.ts. */
export interface OperationRequest<Operation extends { path: unknown; query: unknown; headers: unknown; body: unknown }> {
  path: Operation['path'];
  query: Operation['query'];
  /** The operation's declared headers, by lower-cased name. */
  headers: Operation['headers'];
  body: Operation['body'];
}

export interface HandlerResponse {
  status: number;
  /** A string (or Buffer) is sent as is with `contentType`; anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  contentType?: string;
  /**
   * The handler has taken the response over (a server-sent event stream written to
   * `context.res`) and ends it itself: nothing else is written.
   */
  streamed?: true;
}

/** What `notImplemented` answers: the catalog's 501 code in the contract's envelope. Any operation may give it. */
export interface NotImplementedReply extends HandlerResponse {
  status: 501;
  body: Record<string, unknown>;
}

/**
 * The answers an operation may give, from its responses by status (`Operations[id]['responses']`
 * of the generated types) and the headers each status declares (`…['responseHeaders']`): one
 * member per declared status with that status's body type and headers, plus the 501 of an
 * operation not implemented yet. So `tsc` refuses an undeclared status, a body of the wrong shape
 * or a header the status does not declare. A status without a body (`unknown`) takes any body or
 * none; ranges and `default` are not numbers and give no member.
 */
export type TypedReply<Responses, Headers = unknown> =
  | {
      [Status in keyof Responses & string]: Status extends `${infer Code extends number}`
        ? unknown extends Responses[Status]
          ? Omit<HandlerResponse, 'status' | 'headers'> & { status: Code; headers?: ReplyHeaders<Headers, Status> }
          : Omit<HandlerResponse, 'status' | 'body' | 'headers'> & { status: Code; body: Responses[Status]; headers?: ReplyHeaders<Headers, Status> }
        : never;
    }[keyof Responses & string]
  | NotImplementedReply;

/** The headers a reply of `Status` may set: those it declares; any, where the headers are not known. */
export type ReplyHeaders<Headers, Status extends string> = unknown extends Headers ? Record<string, string> : Status extends keyof Headers ? Headers[Status] : Record<string, never>;

/** The 2xx members of a reply union. */
export type SuccessReply<Reply> = Extract<Reply, { status: 200 | 201 | 202 | 203 | 204 | 205 | 206 }>;

/** What a success answer wraps: the body's `result` (the v3 envelope) or `data` (v1), by `Key`. */
export type EnvelopePayload<Body, Key extends string> = Key extends keyof Body ? Body[Key] : never;

/** The raw express objects and the matched route, for what the typed request does not carry. */
export interface HandlerContext {
  route: RouteDefinition;
  req: Request;
  res: Response;
}

/** One code of the contract's error catalog (`x-error-codes`) with its status. */
export interface CatalogCode {
  code: string;
  status: number;
}

/**
 * How a contract's router answers what no handler answers, read from the contract by the
 * generator: its error format and the catalog's codes for a failed validation and for an
 * operation that has no handler yet.
 */
export interface ContractErrors {
  format: ErrorFormat;
  validation: CatalogCode;
  notImplemented: CatalogCode;
  /**
   * The codes of a request refused before the router takes it (server-transport.ts): a body that
   * is not well-formed JSON, too large or of another content type than its operation takes; a
   * path the contract does not have; a method its path does not take; a path parameter that is
   * not valid percent-encoding.
   */
  transport: Record<TransportFailure, CatalogCode>;
  /** The largest body the contract takes (`info.x-body-limit-bytes`); undefined when it names none. */
  bodyLimitBytes: number | undefined;
  /** How deep a JSON body may nest (`info.x-json-depth-limit`); undefined when it names no bound. */
  jsonDepthLimit: number | undefined;
  /** The header an answer's `correlation_id` echoes (`x-echoed-as`); undefined: none, the answers' is null. */
  correlation: EchoedHeader | undefined;
}

/**
 * A request header an answer echoes, with the bounds of its schema in the contract: a value out
 * of them is answered as null, so no answer carries what the contract's response schema refuses.
 */
export interface EchoedHeader {
  name: string;
  minLength: number | undefined;
  maxLength: number | undefined;
  pattern: string | undefined;
}

export type TransportFailure = 'malformed-body' | 'malformed-path' | 'payload-too-large' | 'unsupported-media-type' | 'not-found' | 'method-not-allowed' | 'internal-error';

export interface RouterOptions {
  /** Answers a request that fails validation; default: the contract's validation code in its envelope, `error.details` and `error.locations` per field (fieldErrors). */
  onValidationError?: ((details: ValidationDetails, req: Request, res: Response, route: RouteDefinition) => void | Promise<void>) | undefined;
  /**
   * Express middleware run for a route after it matched and before its request is parsed and
   * validated (auth, rate limits, idempotency): they read the route's metadata, e.g. its scope.
   */
  routeMiddleware?: ((route: RouteDefinition) => RequestHandler[]) | undefined;
}

type UntypedHandler = (request: OperationRequest<Record<'path' | 'query' | 'headers' | 'body', unknown>>, context: HandlerContext) => unknown;

/**
 * The routes in registration order: segment by segment, a literal segment before a parameter
 * (`/orders/statuses` before `/orders/{order}`), then by text; a shorter path first; then method.
 */
export function routeOrder<Route extends Pick<RouteDefinition, 'path' | 'method'>>(routes: readonly Route[]): Route[] {
  return [...routes].sort(compareRoutes);
}

function compareRoutes(a: Pick<RouteDefinition, 'path' | 'method'>, b: Pick<RouteDefinition, 'path' | 'method'>): number {
  const left = a.path.split('/');
  const right = b.path.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const order = compareSegments(left[i]!, right[i]!);
    if (order !== 0) return order;
  }
  return left.length - right.length || compareText(a.method, b.method);
}

function compareSegments(a: string, b: string): number {
  const aIsParameter = a.includes('{');
  const bIsParameter = b.includes('{');
  if (aIsParameter !== bIsParameter) return aIsParameter ? 1 : -1;
  return compareText(a, b);
}

/** Code-unit order, not locale order: the same on every machine. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * What createRouter returns: an express middleware (mount it with `app.use`) that answers the
 * requests of its operations and passes every other request on with `next()`.
 */
export type Router = RequestHandler;

export function createRouter(
  routes: readonly RouteDefinition[],
  validators: Readonly<Record<string, OperationValidators>>,
  handlers: object,
  errors: ContractErrors,
  options: RouterOptions = {},
): Router {
  const table = new DispatchTable(
    routeOrder(routes).map((route) => {
      const found = (handlers as Record<string, unknown>)[route.operationId];
      const handler: UntypedHandler =
        typeof found === 'function' ? (request, context) => (found as UntypedHandler).call(handlers, request, context) : (_request, context) => notImplemented(errors, context);
      const operationValidators = validators[route.operationId] ?? {};
      const run: RequestHandler = (req, res, next) => {
        handle(route, operationValidators, handler, errors, options, req, res).catch(next);
      };
      return { route, payload: [...(options.routeMiddleware?.(route) ?? []), run] };
    }),
  );
  return (req, res, next) => {
    let found: { entry: DispatchEntry<RequestHandler[]>; params: Record<string, string> } | undefined;
    try {
      found = table.match(req.method, req.url);
    } catch (error) {
      next(error); // a path parameter that is not valid percent-encoding (URIError)
      return;
    }
    if (found === undefined) {
      next();
      return;
    }
    req.params = found.params;
    runChain(found.entry.payload, req, res, next);
  };
}

// ---------------------------------------------------------------------------------------------
// Dispatch. Express matches a request against every registered route in turn, one regular
// expression and one middleware layer each; with dozens of operations that was about a third
// of the mock's CPU time per request. The table below is built once from the ordered routes:
// fully literal paths by one Map lookup, parameter paths only among those of the same method
// and length, tried in route order. Matching follows express 5's defaults: case-insensitive
// literals, an optional trailing slash, non-empty parameter segments, percent-decoded
// parameters, and a GET route also answering HEAD.

interface DispatchEntry<Payload> {
  route: RouteDefinition;
  payload: Payload;
  /** Per path segment: the parameter's name, or null for a literal segment. */
  parameters: (string | null)[];
  /** Per path segment: the lower-cased literal (unused for parameters). */
  literals: string[];
}

class DispatchTable<Payload> {
  private readonly literal = new Map<string, DispatchEntry<Payload>>();
  private readonly parameterised = new Map<string, DispatchEntry<Payload>[]>();

  constructor(entries: readonly { route: RouteDefinition; payload: Payload }[]) {
    for (const { route, payload } of entries) {
      const segments = route.path.split('/').slice(1);
      const parameters = segments.map((segment) => {
        const name = /^\{([^}]+)\}$/.exec(segment)?.[1];
        if (name === undefined && segment.includes('{')) throw new Error(`createRouter: ${route.path}: a parameter must fill its whole path segment`);
        return name ?? null;
      });
      const entry: DispatchEntry<Payload> = { route, payload, parameters, literals: segments.map((segment) => segment.toLowerCase()) };
      const method = route.method.toUpperCase();
      if (parameters.every((name) => name === null)) {
        const key = literalKey(method, entry.literals.join('/'));
        if (!this.literal.has(key)) this.literal.set(key, entry);
      } else {
        const key = `${method} ${segments.length}`;
        this.parameterised.set(key, [...(this.parameterised.get(key) ?? []), entry]);
      }
    }
  }

  /** The route a request is for and its decoded path parameters; undefined when none matches. */
  match(method: string, url: string): { entry: DispatchEntry<Payload>; params: Record<string, string> } | undefined {
    const query = url.indexOf('?');
    let path = query === -1 ? url : url.slice(0, query);
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    // The segments after the first '/' (the leading one of an origin-form path), not yet split:
    // a literal path is found from its text, and most requests are for one.
    const slash = path.indexOf('/');
    const rest = slash === -1 ? '' : path.slice(slash + 1);
    const lowered = rest.toLowerCase();
    return this.find(method, rest, lowered) ?? (method === 'HEAD' ? this.find('GET', rest, lowered) : undefined);
  }

  private find(method: string, rest: string, lowered: string): { entry: DispatchEntry<Payload>; params: Record<string, string> } | undefined {
    const literal = this.literal.get(literalKey(method, lowered));
    if (literal !== undefined) return { entry: literal, params: {} };
    const segments = rest.split('/');
    const loweredSegments = lowered.split('/');
    for (const entry of this.parameterised.get(`${method} ${segments.length}`) ?? []) {
      if (!entry.parameters.every((name, i) => (name === null ? entry.literals[i] === loweredSegments[i] : segments[i] !== ''))) continue;
      const params: Record<string, string> = {};
      entry.parameters.forEach((name, i) => {
        if (name !== null) params[name] = decodeURIComponent(segments[i]!);
      });
      return { entry, params };
    }
    return undefined;
  }
}

/** The literal table's key of a path: its method and its lower-cased segments joined by '/'. */
function literalKey(method: string, loweredSegments: string): string {
  return `${method} ${loweredSegments}`;
}

/** The operation a request is for, with its decoded path parameters. */
export interface RouteMatch {
  route: RouteDefinition;
  params: Record<string, string>;
}

/**
 * Finds the operation of a method and URL (path below the family's base path, with or without
 * a query) the way createRouter dispatches, for code that sees requests outside express (the
 * validating proxy).
 */
export class RouteMatcher {
  private readonly table: DispatchTable<null>;

  constructor(routes: readonly RouteDefinition[]) {
    this.table = new DispatchTable(routeOrder(routes).map((route) => ({ route, payload: null })));
  }

  /** Undefined when no operation matches; throws URIError for a parameter that is not valid percent-encoding. */
  match(method: string, url: string): RouteMatch | undefined {
    const found = this.table.match(method.toUpperCase(), url);
    return found === undefined ? undefined : { route: found.entry.route, params: found.params };
  }
}

/** A request as it travelled, for validateRequestParts: the parts createRouter reads from express. */
export interface RequestParts {
  /** Decoded path parameters (RouteMatch.params). */
  params: Record<string, string>;
  /** The query string without its `?`, exactly as sent. */
  rawQuery: string;
  /** Header name (any case) to value. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body, or undefined when none was sent. */
  body: unknown;
}

/**
 * What createRouter would answer with 422 for this request: the same parsing and validation,
 * for code that sees requests outside express. Empty when the request is valid.
 */
export function validateRequestParts(route: RouteDefinition, validators: OperationValidators, parts: RequestParts): ValidationDetails {
  const headers: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(parts.headers)) headers[name.toLowerCase()] = value;
  return validateRequest(route, validators, parseParts(route, { ...parts, headers }));
}

/**
 * Runs middleware in order, as express would: an error (thrown, passed or rejected) goes to
 * `done`, and so does the request when the last one calls `next()`. Exported so an app can run
 * a stack of its own middleware as one express layer.
 */
export function runChain(chain: readonly RequestHandler[], req: Request, res: Response, done: NextFunction): void {
  let index = 0;
  const step = (error?: unknown): void => {
    if (error !== undefined && error !== null && error !== false) {
      done(error);
      return;
    }
    const next = chain[index];
    index += 1;
    if (next === undefined) {
      done();
      return;
    }
    try {
      const returned: unknown = next(req, res, step);
      if (returned instanceof Promise) returned.catch(step);
    } catch (thrown) {
      done(thrown);
    }
  };
  step();
}

async function handle(
  route: RouteDefinition,
  validators: OperationValidators,
  handler: UntypedHandler,
  errors: ContractErrors,
  options: RouterOptions,
  req: Request,
  res: Response,
): Promise<void> {
  // express's query parser turns `filter[status]` into nested objects: read the raw query string.
  const rawQuery = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
  const request = parseParts(route, { params: req.params as Record<string, string>, rawQuery, headers: req.headers, body: req.body as unknown });
  // Every answer carries a request id (the contracts require X-Request-Id); the app's own middleware may have set one.
  if (!res.hasHeader('x-request-id')) res.setHeader('X-Request-Id', randomUUID());
  const details = validateRequest(route, validators, request);
  if (Object.keys(details).length > 0) {
    if (options.onValidationError !== undefined) await options.onValidationError(details, req, res, route);
    else writeResponse(res, catalogError(errors, errors.validation, { req, res }, 'The given data was invalid.', details));
    return;
  }
  const response = await handler(request, { route, req, res });
  if (!isHandlerResponse(response)) throw new Error(`handler ${route.operationId} returned no { status } response`);
  if (response.streamed !== true) writeResponse(res, response);
}

/** The contract's 501 answer for an operation that has no handler yet: what a scaffolded handler returns. */
export function notImplemented(errors: ContractErrors, context: Pick<HandlerContext, 'req' | 'res' | 'route'>): NotImplementedReply {
  const { body } = catalogError(errors, errors.notImplemented, context, `${context.route.operationId} is not implemented yet.`);
  return { status: 501, body: body as Record<string, unknown> };
}

/** An error answer with a code of the contract's catalog, in the contract's format. */
export function catalogError(
  errors: ContractErrors,
  entry: CatalogCode,
  context: Pick<HandlerContext, 'req' | 'res'>,
  message: string,
  details?: ValidationDetails,
): HandlerResponse {
  return { status: entry.status, body: errorBody(errors.format, responseIds(context, errors.correlation), entry.code, message, details) };
}

/** A success answer in the contract's format: the v3 envelope around `result`, or v1's `{ data, meta? }`. */
export function catalogSuccess(
  errors: ContractErrors,
  context: Pick<HandlerContext, 'req' | 'res'>,
  status: number,
  result: unknown,
  meta?: Record<string, unknown>,
): HandlerResponse {
  return { status, body: successBody(errors.format, responseIds(context, errors.correlation), result, meta) };
}

/**
 * The ids of an answer: the X-Request-Id the app's middleware set on the response, or a new one
 * (set on the response, so header and body agree), and the caller's correlation header when it
 * is within its schema's bounds (else null, as the kit's mock answers).
 */
export function responseIds({ req, res }: Pick<HandlerContext, 'req' | 'res'>, correlation: EchoedHeader | undefined): ResponseIds {
  let requestId = res.getHeader('x-request-id');
  if (typeof requestId !== 'string') {
    requestId = randomUUID();
    res.setHeader('X-Request-Id', requestId);
  }
  const correlationId = echoedCorrelationId(correlation === undefined ? undefined : req.get(correlation.name), correlation);
  return { requestId, correlationId, timestamp: new Date().toISOString() };
}

/** The correlation id an answer carries: the header as sent when it keeps to its schema, else null. */
export function echoedCorrelationId(sent: string | undefined, header: EchoedHeader | undefined): string | null {
  return header !== undefined && sent !== undefined && echoable(sent, header) ? sent : null;
}

/** Whether a header value keeps to its schema's bounds: lengths in code points and an ECMAScript pattern with `u`, as the validators count. */
function echoable(value: string, header: EchoedHeader): boolean {
  const length = [...value].length;
  if (header.minLength !== undefined && length < header.minLength) return false;
  if (header.maxLength !== undefined && length > header.maxLength) return false;
  return header.pattern === undefined || echoPattern(header.pattern).test(value);
}

/** Each pattern compiled once: a contract names one or two. */
const echoPatterns = new Map<string, RegExp>();
function echoPattern(pattern: string): RegExp {
  let compiled = echoPatterns.get(pattern);
  if (compiled === undefined) echoPatterns.set(pattern, (compiled = new RegExp(pattern, 'u')));
  return compiled;
}

function isHandlerResponse(value: unknown): value is HandlerResponse {
  return typeof value === 'object' && value !== null && typeof (value as { status?: unknown }).status === 'number';
}

function writeResponse(res: Response, response: HandlerResponse): void {
  // Set directly: res.status() re-checks the code on every answer, and node checks it anyway.
  res.statusCode = response.status;
  if (response.headers !== undefined) for (const [name, value] of Object.entries(response.headers)) res.set(name, value);
  const { body, contentType } = response;
  if (body === undefined) {
    res.end();
  } else if (typeof body === 'string') {
    res.type(contentType ?? 'text/plain').send(body);
  } else if (Buffer.isBuffer(body)) {
    res.type(contentType ?? 'application/octet-stream').send(body);
  } else {
    // JSON, the common case, is written directly: one write of headers and body, no ETag
    // (res.send hashes every body for one; API clients do not revalidate these answers). Views
    // the handler serialised once (SerializedJson) are spliced in as bytes; jsonChunk says
    // when the text is written as it is and when as its UTF-8 bytes (its length is the byte count either way).
    const chunk = jsonChunk(body);
    res.setHeader('Content-Type', contentType === undefined ? jsonContentType : withCharset(contentType));
    res.setHeader('Content-Length', chunk.length);
    res.end(chunk);
  }
}

/** The Content-Type of a JSON answer without a declared one: built once, not per answer. */
const jsonContentType = 'application/json; charset=utf-8';

function withCharset(type: string): string {
  return /charset=/i.test(type) ? type : `${type}; charset=utf-8`;
}

type ParsedRequest = OperationRequest<Record<'path' | 'query' | 'headers' | 'body', unknown>>;

/**
 * Only the declared parameters are kept: undeclared query parameters and headers are ignored.
 * `headers` are keyed by lower-cased name (node's IncomingMessage headers are).
 */
function parseParts(route: RouteDefinition, parts: RequestParts): ParsedRequest {
  // Parsed on the first query parameter: most operations declare none.
  let search: URLSearchParams | undefined;
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const headers: Record<string, unknown> = {};
  for (const parameter of route.parameters) {
    const raw = parameter.in === 'query' ? (search ??= new URLSearchParams(parts.rawQuery)).getAll(parameter.name) : rawValues(parameter, parts);
    if (raw.length === 0) continue;
    const value = parameterValue(parameter, raw);
    if (parameter.in === 'path') path[parameter.name] = value;
    else if (parameter.in === 'query') query[parameter.name] = value;
    else headers[parameter.name.toLowerCase()] = value;
  }
  return { path, query, headers, body: parts.body };
}

/** A path parameter's or a header's raw value. */
function rawValues(parameter: ParameterDefinition, parts: RequestParts): string[] {
  if (parameter.in === 'path') {
    // The dispatcher has already decoded path parameters.
    const value = parts.params[parameter.name];
    return value === undefined ? [] : [value];
  }
  const value = parts.headers[parameter.name.toLowerCase()];
  if (value === undefined) return [];
  return [Array.isArray(value) ? value.join(', ') : value];
}

function parameterValue(parameter: ParameterDefinition, raw: string[]): unknown {
  if (!parameter.array) return coerce(raw[0]!, parameter.kind);
  const items = parameter.commaSeparated ? raw.flatMap((value) => (value === '' ? [] : value.split(','))) : raw;
  return items.map((item) => coerce(item, parameter.kind));
}

const numeric = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Values that do not fit the type stay strings, so the validator rejects them with its message. */
function coerce(value: string, kind: ScalarKind): unknown {
  if ((kind === 'integer' || kind === 'number') && numeric.test(value)) return Number(value);
  if (kind === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function validateRequest(route: RouteDefinition, validators: OperationValidators, request: ParsedRequest): ValidationDetails {
  const details: ValidationDetails = {};
  checkParameters(details, 'path', validators.path, request.path);
  checkParameters(details, 'query', validators.query, request.query);
  checkParameters(details, 'headers', validators.headers, request.headers);
  // Other media types (multipart uploads) reach the handler as the app's parser left them.
  if (route.body === undefined || !isJsonMediaType(route.body.contentType)) return details;
  if (request.body === undefined) {
    if (route.body.required) add(details, 'body', 'is required');
  } else if (validators.body !== undefined && !validators.body(request.body)) {
    addErrors(details, 'body', validators.body, false);
  }
  return details;
}

function checkParameters(details: ValidationDetails, location: 'path' | 'query' | 'headers', validate: RequestValidator | undefined, data: unknown): void {
  if (validate !== undefined && !validate(data)) addErrors(details, location, validate, true);
}

/** Whether a media type is JSON: `application/json` or a `+json` type, parameters ignored. */
export function isJsonMediaType(contentType: string): boolean {
  return /^application\/(?:[\w.-]+\+)?json$/i.test(contentType.split(';')[0]!.trim());
}

/**
 * Parameters are reported by name (`query.filter[status]`), with any deeper position in the
 * message; body errors by their full dot path (`body.requisites.to_address`).
 */
function addErrors(details: ValidationDetails, location: string, validate: RequestValidator, byParameter: boolean): void {
  let fields = Object.keys(details).length;
  for (const error of withoutSchemaWrappers(validate.errors ?? [], validate.unions)) {
    const { field, message } = detailOf(error, location, byParameter);
    if (details[field] === undefined) {
      if (fields >= validationDetailFieldLimit) continue;
      fields += 1;
    }
    add(details, field, message);
  }
}

/** The field an error is about and what is wrong with it; a parameter's own inner path goes into the message. */
function detailOf(error: ValidationErrorObject, location: string, byParameter: boolean): { field: string; message: string } {
  const segments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const property = propertyOf(error);
  if (property !== undefined) segments.push(property);
  const message = messageOf(error);
  if (!byParameter || segments.length <= 1) return { field: [location, ...segments].join('.'), message };
  const [name, ...rest] = segments;
  const at = rest.length === 1 && /^\d+$/.test(rest[0]!) ? `item ${rest[0]}` : rest.join('.');
  return { field: `${location}.${name}`, message: `${at} ${message}` };
}

// ajv's params are an index signature: read with brackets for noPropertyAccessFromIndexSignature.
/** The property a `required` or `additionalProperties` error is about, below its instancePath. */
function propertyOf(error: ValidationErrorObject): string | undefined {
  const property = error.params['missingProperty'] ?? error.params['additionalProperty'] ?? error.params['unevaluatedProperty'];
  return typeof property === 'string' ? property : undefined;
}

function messageOf(error: ValidationErrorObject): string {
  const { keyword, params } = error;
  if (keyword === 'required') return 'is required';
  if (keyword === 'additionalProperties' || keyword === 'unevaluatedProperties') return 'is not allowed';
  if (keyword === 'enum' && Array.isArray(params['allowedValues'])) return `must be one of: ${params['allowedValues'].map(String).join(', ')}`;
  if (keyword === 'const' && 'allowedValue' in params) return `must be ${String(params['allowedValue'])}`;
  if (keyword === 'format' && typeof params['format'] === 'string') return `must be a valid ${params['format']}`;
  return error.message ?? `fails ${keyword}`;
}

/**
 * The most fields one answer's details name. A body of a hundred thousand bad items would
 * otherwise get an answer tens of megabytes long, built and sent while every other caller waits;
 * the first fields, in the validator's order, tell a client what to fix.
 */
export const validationDetailFieldLimit = 100;

function add(details: ValidationDetails, field: string, message: string): void {
  const messages = (details[field] ??= []);
  if (!messages.includes(message)) messages.push(message);
}
