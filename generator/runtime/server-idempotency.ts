// Idempotency keys of the operations a contract marks with `x-idempotency`, for a generated
// router (its routeMiddleware, after the security middleware, which names the caller). The
// implementer plugs in a store that reserves a (caller, key) for a request's fingerprint; the
// first request with a key runs and its answer is stored, a repeat of the same request gets
// that answer replayed with the contract's replayed header, and a reuse for another request or
// while the first still runs answers the code the catalog marks (`x-idempotency-failure`).
import { hash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { catalogError, type CatalogCode, type ContractErrors, type HandlerResponse, type RequestValidator, type RouteDefinition } from './router-runtime.js';
import { noFingerprintBody, requestFingerprint, type FingerprintBody } from './request-fingerprint.js';
import { callerOf, type Caller } from './server-security.js';

export type IdempotencyFailure = 'key-reused' | 'in-flight';

/** An answer as it was written, to be replayed. */
export interface StoredAnswer {
  /** The fingerprint of the request that produced it (method, path and query, what the body says: request-fingerprint.ts). */
  fingerprint: string;
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

/** One key of one caller (`caller` is undefined where the operation has no security hook in front). */
export interface IdempotencySlot {
  caller: Caller | undefined;
  key: string;
}

export type Reservation =
  | { kind: 'reserved' }
  | { kind: 'in-flight'; fingerprint: string }
  | { kind: 'stored'; answer: StoredAnswer };

/** What an implementer plugs in: a store whose reserve is atomic (no read-then-write across an await). */
export interface IdempotencyStore {
  /** Reserves the slot for this request for `windowSeconds`, or says what already holds it. */
  reserve(slot: IdempotencySlot, fingerprint: string, windowSeconds: number): Reservation | Promise<Reservation>;
  /** Keeps the answer of the request that reserved the slot, for the rest of its window. */
  complete(slot: IdempotencySlot, answer: StoredAnswer): void | Promise<void>;
  /** Frees the slot unstored (the answer may succeed when repeated: a 5xx, a 429, a lost connection). */
  release(slot: IdempotencySlot): void | Promise<void>;
}

export interface IdempotencyContract {
  errors: ContractErrors;
  failures: Readonly<Record<IdempotencyFailure, CatalogCode>>;
  /** The header that marks a replayed answer (`x-idempotency-replayed`). */
  replayedHeader: string;
  /** The generated validators: an operation's header validator holds the key's declared bounds. */
  validators: Readonly<Record<string, { readonly headers?: RequestValidator | undefined }>>;
}

const messages: Record<IdempotencyFailure, (header: string) => string> = {
  'key-reused': (header) => `This ${header} was already used for a different request.`,
  'in-flight': (header) => `The first request with this ${header} is still running; repeat it once that one has answered.`,
};

export function idempotencyMiddleware(contract: IdempotencyContract, store: IdempotencyStore): (route: RouteDefinition) => RequestHandler[] {
  return (route) => {
    const policy = route.idempotency;
    if (policy === undefined) return [];
    const validateHeaders = contract.validators[route.operationId]?.headers;
    const field = policy.header.toLowerCase();
    const handle = async (req: Request, res: Response, next: () => void): Promise<void> => {
      const key = req.get(policy.header);
      if (key === undefined) return next();
      const problems = keyProblems(validateHeaders, field, key);
      if (problems.length > 0) {
        return answer(res, catalogError(contract.errors, contract.errors.validation, { req, res }, 'The given data was invalid.', { [`headers.${field}`]: problems }));
      }
      const slot: IdempotencySlot = { caller: callerOf(res), key };
      const fingerprint = fingerprintOf(req);
      const reservation = await store.reserve(slot, fingerprint, policy.windowSeconds);
      if (reservation.kind === 'reserved') {
        record(res, fingerprint, store, slot);
        return next();
      }
      const held = reservation.kind === 'stored' ? reservation.answer.fingerprint : reservation.fingerprint;
      if (held !== fingerprint || reservation.kind === 'in-flight') {
        const failure: IdempotencyFailure = held !== fingerprint ? 'key-reused' : 'in-flight';
        return answer(res, catalogError(contract.errors, contract.failures[failure], { req, res }, messages[failure](policy.header)));
      }
      replay(res, reservation.answer, contract.replayedHeader);
    };
    return [(req, res, next) => void handle(req, res, next).catch(next)];
  };
}

/**
 * The request a key stands for (request-fingerprint.ts): method, path and query, and the body
 * the app's parser left in `req.body`, by its value (so the same JSON serialised another way is
 * the same request) or, for bytes (`express.raw`), by their hash; none when no parser read it.
 */
export function fingerprintOf(req: Request): string {
  return requestFingerprint(req.method, req.originalUrl, bodyOf(req.body));
}

function bodyOf(body: unknown): FingerprintBody {
  if (body === undefined) return noFingerprintBody;
  return Buffer.isBuffer(body) ? { kind: 'bytes', sha256: hash('sha256', body, 'hex') } : { kind: 'json', value: body };
}

/** The validator's messages about the key header alone (the router checks the other headers). */
function keyProblems(validate: RequestValidator | undefined, field: string, value: string): string[] {
  if (validate === undefined || validate({ [field]: value })) return [];
  return (validate.errors ?? []).filter((e) => e.instancePath === `/${field}`).map((e) => e.message ?? `fails ${e.keyword}`);
}

function answer(res: Response, { status, body }: HandlerResponse): void {
  res.status(status).json(body);
}

/** A final answer is stored; one that may succeed when repeated (5xx, 429) is not. */
function storable(status: number): boolean {
  return (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 429);
}

// Headers of one transmission, never stored.
const transportHeaders = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'etag']);

/**
 * Stores what the handler writes once the answer ends (or releases the slot). Headers already
 * set before the handler ran (a request id, the limit headers) belong to each attempt.
 */
function record(res: Response, fingerprint: string, store: IdempotencyStore, slot: IdempotencySlot): void {
  const earlier = new Set(res.getHeaderNames());
  const chunks: Buffer[] = [];
  let settled = false;
  const settle = (stored: StoredAnswer | undefined) => {
    if (settled) return;
    settled = true;
    void Promise.resolve(stored === undefined ? store.release(slot) : store.complete(slot, stored)).catch(() => undefined);
  };
  const collect = (chunk: unknown) => {
    if (typeof chunk === 'string') chunks.push(Buffer.from(chunk));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((...args: unknown[]) => (collect(args[0]), write(...args))) as Response['write'];
  res.end = ((...args: unknown[]) => {
    if (typeof args[0] !== 'function') collect(args[0]);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(res.getHeaders())) {
      if (value !== undefined && !earlier.has(name) && !transportHeaders.has(name)) headers[name] = typeof value === 'number' ? String(value) : value;
    }
    settle(storable(res.statusCode) ? { fingerprint, status: res.statusCode, headers, body: Buffer.concat(chunks).toString('utf8') } : undefined);
    return end(...args);
  }) as Response['end'];
  res.once('close', () => settle(undefined));
}

function replay(res: Response, stored: StoredAnswer, replayedHeader: string): void {
  res.status(stored.status);
  for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
  res.setHeader(replayedHeader, 'true');
  res.end(stored.body);
}
