// Idempotency keys of unsafe operations (x-idempotency: v3 Idempotency-Key, v1
// X-Idempotency-Key). Keys are scoped per caller. The first request with a key runs and its
// response is stored for the operation's window on the virtual clock; a repeat of the same
// request (method, path and query, and what the body says, not its bytes: the generated
// runtime's request-fingerprint.ts) gets the stored response replayed, a different request with
// the key gets 409. A duplicate that arrives while the first is still running waits for it, so
// concurrent duplicates execute once: in this process through the requests in flight, across
// processes through the store's atomic reservation. Only final answers are stored:
// 2xx and 4xx except 429 (a 5xx or a 429 may succeed when repeated). Records live for the whole
// window whatever other callers do; one caller holds at most a bound of live records, past which
// a new key is refused with 429 (never a silent eviction).
import type { RequestHandler, Response } from 'express';
import { exchangeV3HeaderNames } from '../../generated/exchange-v3/contract-data.js';
import { requestFingerprint } from '../../generated/runtime/request-fingerprint.js';
import type { RequestValidator, RouteDefinition } from '../../generated/runtime/router-runtime.js';
import type { Clock } from '../clock.js';
import type { IdempotencySlot, IdempotencyStore, StoredResponse } from '../store/sandbox-store.js';
import { reportStoreFailure } from '../store/report-store-failure.js';
import { fingerprintBody } from './body.js';
import { HttpError } from './http-error.js';
import { limitHeaders } from './limit-headers.js';
import { requestLocals } from './locals.js';
import { storeBeforeAnswer } from './stored-before-answer.js';

/** Marks a replayed response (the contracts' IdempotentReplayed header, Stripe's name for it). */
export const replayedHeader = exchangeV3HeaderNames.IdempotentReplayed;

/**
 * How long a reservation whose request has not finished holds its key against other processes
 * (virtual time): past it, the process that made it is taken to have died.
 */
export const pendingLeaseMs = 60_000;
/** How often a duplicate polls for the answer of its first request running in another process. */
const pendingPollMs = 25;

export interface IdempotencyOptions {
  store: IdempotencyStore;
  clock: Clock;
  /** Live records one caller may hold. */
  maxPerCaller: number;
  /** Whose key it is (`caller:7`); undefined skips idempotency (no authenticated caller). */
  caller(res: Response): string | undefined;
  /** The family's codes for a reused key, a malformed one, and a caller at its bound of records. */
  conflictCode: string;
  validationCode: string;
  fullCode: string;
  /** The family's generated operation validators: the header validator holds the key's declared bounds. */
  validators?: Readonly<Record<string, { readonly headers?: RequestValidator | undefined }>>;
}

interface InFlight {
  fingerprint: string;
  done: Promise<void>;
}

type Claim =
  | { kind: 'run'; release: (response: StoredResponse | undefined) => Promise<void> }
  | { kind: 'replay'; stored: StoredResponse }
  | { kind: 'conflict' }
  | { kind: 'full'; limit: number; retryAfterSeconds: number };

// Headers that describe one transmission, not the answer: never stored or replayed.
const transportHeaders = new Set(['content-length', 'etag', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

export function createIdempotency(options: IdempotencyOptions): (route: RouteDefinition) => RequestHandler {
  const inFlight = new Map<string, InFlight>();
  const { store, clock } = options;

  async function claim(slot: IdempotencySlot, fingerprint: string, ttlMs: number): Promise<Claim> {
    const id = `${slot.caller}\n${slot.key}`;
    for (;;) {
      const pending = inFlight.get(id);
      if (pending !== undefined) {
        if (pending.fingerprint !== fingerprint) return { kind: 'conflict' };
        await pending.done;
        continue; // the first one is done: its stored response, or (not stored) our turn to run
      }
      // Marked synchronously, before any await, so a concurrent duplicate of this process waits.
      let resolve!: () => void;
      const done = new Promise<void>((r) => (resolve = r));
      inFlight.set(id, { fingerprint, done });
      const settle = () => {
        inFlight.delete(id);
        resolve();
      };
      const nowMs = clock.nowMs();
      let reservation;
      try {
        reservation = await store.reserve(slot, fingerprint, nowMs, nowMs + ttlMs, { maxPerCaller: options.maxPerCaller, pendingLeaseMs });
      } catch (error) {
        settle();
        throw error;
      }
      if (reservation.kind === 'reserved') return { kind: 'run', release: releaser(slot, settle) };
      settle();
      switch (reservation.kind) {
        case 'stored':
          return reservation.response.fingerprint === fingerprint ? { kind: 'replay', stored: reservation.response } : { kind: 'conflict' };
        case 'pending':
          // Its first request runs in another process sharing the store: wait for its answer.
          if (reservation.fingerprint !== fingerprint) return { kind: 'conflict' };
          await new Promise((r) => setTimeout(r, pendingPollMs));
          continue;
        case 'full':
          return { kind: 'full', limit: reservation.limit, retryAfterSeconds: Math.max(1, Math.ceil((reservation.retryAtMs - nowMs) / 1000)) };
      }
    }
  }

  /** Completes (or gives up) the reservation once, then lets waiting duplicates go on. */
  function releaser(slot: IdempotencySlot, settle: () => void): (response: StoredResponse | undefined) => Promise<void> {
    let released = false;
    return async (response) => {
      if (released) return;
      released = true;
      try {
        if (response !== undefined) await store.complete(slot, response);
        else await store.release(slot);
      } finally {
        settle();
      }
    };
  }

  return (route) => {
    const policy = route.idempotency;
    const validateHeaders = options.validators?.[route.operationId]?.headers;
    return (req, res, next) => {
      const value = policy === undefined ? undefined : req.get(policy.header);
      const caller = options.caller(res);
      if (policy === undefined || value === undefined || caller === undefined) {
        next();
        return;
      }
      const field = policy.header.toLowerCase();
      const problems = keyProblems(validateHeaders, field, value);
      if (problems.length > 0) {
        next(new HttpError(options.validationCode, 'The given data was invalid.', { [`headers.${field}`]: problems }));
        return;
      }
      const locals = requestLocals(res);
      const fingerprint = requestFingerprint(req.method, req.originalUrl, fingerprintBody(req, locals));
      // Headers set before this point (request id, rate-limit and quota headers) belong to each
      // attempt, not to the stored answer.
      const ownHeaders = new Set(res.getHeaderNames());
      claim({ caller, key: value }, fingerprint, policy.windowSeconds * 1000)
        .then((outcome) => {
          if (outcome.kind === 'full') {
            const message = `This caller holds ${outcome.limit} live idempotency records, the most one caller may hold; a new ${policy.header} is accepted in ${outcome.retryAfterSeconds} s.`;
            next(new HttpError(options.fullCode, message, undefined, { [limitHeaders.retryAfter]: String(outcome.retryAfterSeconds) }));
          } else if (outcome.kind === 'conflict') {
            next(new HttpError(options.conflictCode, `${policy.header} ${value} was already used for a different request.`));
          } else if (outcome.kind === 'replay') {
            replay(res, outcome.stored, locals.requestId);
          } else {
            capture(res, ownHeaders, fingerprint, outcome.release);
            next();
          }
        })
        .catch(next);
    };
  };
}

/** The validator's messages about the key header alone (other declared headers are not ours to check). */
function keyProblems(validate: RequestValidator | undefined, field: string, value: string): string[] {
  if (validate === undefined || validate({ [field]: value })) return [];
  return (validate.errors ?? []).filter((e) => e.instancePath === `/${field}`).map((e) => e.message ?? `fails ${e.keyword}`);
}

function storable(status: number): boolean {
  return (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 429);
}

/** Records what the handler writes (wrapping write/end) and releases the claim with it. */
function capture(res: Response, ownHeaders: Set<string>, fingerprint: string, release: (response: StoredResponse | undefined) => Promise<void>): void {
  const chunks: Buffer[] = [];
  const collect = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((...args: unknown[]) => {
    collect(args[0], args[1]);
    return write(...args);
  }) as Response['write'];
  res.end = ((...args: unknown[]) => {
    if (typeof args[0] !== 'function') collect(args[0], args[1]);
    const status = res.statusCode;
    const response = storable(status) ? { fingerprint, status, headers: answerHeaders(res, ownHeaders), body: Buffer.concat(chunks) } : undefined;
    const released = release(response);
    // The record replays this answer after a crash: on a durable store the answer waits for it.
    // (Its head is written by end() just below; an answer whose head was written earlier does not wait.)
    if (response !== undefined) storeBeforeAnswer(res, released);
    released.catch((error: unknown) => reportStoreFailure('an idempotency record could not be stored', error));
    return end(...args);
  }) as Response['end'];
  // A connection closed before the answer was written releases the key unstored.
  res.once('close', () => void release(undefined).catch((error: unknown) => reportStoreFailure('an idempotency key could not be released', error)));
}

function answerHeaders(res: Response, ownHeaders: Set<string>): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined || ownHeaders.has(name) || transportHeaders.has(name)) continue;
    headers[name] = typeof value === 'number' ? String(value) : value;
  }
  return headers;
}

function replay(res: Response, stored: StoredResponse, requestId: string): void {
  res.status(stored.status);
  for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
  res.setHeader(replayedHeader, 'true');
  res.end(withRequestId(stored, requestId));
}

/**
 * The stored body with this request's id: the replay is a new request with its own
 * X-Request-Id, and the body's id (v3 meta.request_id, v1 error requestId) must match it.
 */
function withRequestId(stored: StoredResponse, requestId: string): Buffer {
  const type = stored.headers['content-type'];
  if (typeof type !== 'string' || !/json/i.test(type)) return stored.body;
  try {
    const body: unknown = JSON.parse(stored.body.toString('utf8'));
    if (typeof body !== 'object' || body === null) return stored.body;
    const record = body as Record<string, unknown>;
    const meta = record.meta;
    if (typeof meta === 'object' && meta !== null && 'request_id' in meta) (meta as Record<string, unknown>).request_id = requestId;
    if (typeof record.requestId === 'string') record.requestId = requestId;
    return Buffer.from(JSON.stringify(body));
  } catch {
    return stored.body;
  }
}
