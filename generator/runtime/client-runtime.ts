// The runtime under every generated client: one generic `request` per call described by an
// OperationSpec (read from the contract at generate time), plus `paginate`. It adds Bearer auth,
// the optional idempotency key and correlation id, signs each attempt, retries 429 after
// Retry-After and 5xx / network errors with backoff when a repeat cannot duplicate an effect,
// and turns non-2xx answers into ApiError. Self-contained: node:crypto and web globals only.
import { randomUUID } from 'node:crypto';
import { apiErrorFrom, requestIdOf, type ErrorFormat } from './client-errors.js';
import { itemsAt, pagingPlan, type PageMode } from './client-pagination.js';
import { backoffDelay, pause, retryAfterDelay, retryPolicy, type RetryOptions, type RetryPolicy } from './client-retry.js';
import type { RequestSigner } from './client-signing.js';
import { buildUrl } from './client-url.js';

export { ApiError, type ErrorFormat } from './client-errors.js';
export { createHmacSigner, verifyWebhookSignature, type RequestSigner, type SignatureScheme, type SigningClock } from './client-signing.js';
export type { RetryOptions } from './client-retry.js';

export interface OperationSpec {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Template as in the contract: '/private/orders/{order}'. */
  path: string;
  query: readonly { name: string; commaSeparated: boolean }[];
  /** Header parameter names the operation declares. */
  headers: readonly string[];
  /** 'Idempotency-Key' (v3) or 'X-Idempotency-Key' (v1). */
  idempotencyHeader?: string;
  /** 'application/json' or 'multipart/form-data'. */
  body?: { contentType: string };
  /** items: dot path of the list in the body, 'result.orders' | 'data'. */
  pagination?: { items: string; modes: readonly string[] };
}

// The caller's optional inputs and options accept an explicit `undefined` (an unset variable),
// which means the same as leaving them out, also under exactOptionalPropertyTypes.
export interface RequestInput {
  path?: Record<string, string | number> | undefined;
  /** Arrays for comma lists and repeated parameters; undefined and null values are omitted. */
  query?: Record<string, unknown> | undefined;
  headers?: Record<string, string | undefined> | undefined;
  /** A JSON value, or FormData for multipart. */
  body?: unknown;
  signal?: AbortSignal | undefined;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
  requestId: string | undefined;
}

export interface ClientOptions {
  /** 'http://localhost:4010'; a trailing slash is tolerated. */
  baseUrl: string;
  /** '/api/v3' or ''; the generated client passes the contract's. */
  basePath?: string | undefined;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string | undefined;
  signer?: RequestSigner | undefined;
  /** auto (default): an unsafe call of an operation with an idempotency header gets a random key when the caller gave none. */
  idempotency?: 'auto' | 'manual' | undefined;
  /** Sent as X-Correlation-Id when the operation declares that header and the caller gave none. */
  correlationId?: string | (() => string) | undefined;
  retry?: RetryOptions | false | undefined;
  /** Sent on every call; the call's own headers win. */
  headers?: Record<string, string> | undefined;
  fetch?: typeof fetch | undefined;
  /** The wait between attempts (a timer by default); a call's signal ends it whatever it does. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Jitter source in [0, 1); Math.random by default. */
  random?: (() => number) | undefined;
  errorFormat: ErrorFormat;
}

const CORRELATION_HEADER = 'x-correlation-id';

export class ClientRuntime {
  private readonly options: ClientOptions;
  private readonly retry: RetryPolicy;
  private readonly fetch: typeof fetch;
  private readonly random: () => number;

  constructor(options: ClientOptions) {
    this.options = options;
    this.retry = retryPolicy(options.retry);
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.random = options.random ?? Math.random;
  }

  async request<T>(spec: OperationSpec, input: RequestInput = {}): Promise<ApiResponse<T>> {
    const url = buildUrl(
      this.options.baseUrl,
      this.options.basePath ?? '',
      spec.path,
      input.path ?? {},
      input.query ?? {},
      spec.query,
      spec.operationId,
    );
    const { body, sent, contentType } = await encodeBody(spec, input.body);
    const headers = this.headersFor(spec, input, body, contentType);
    // A repeat must not duplicate an effect: only reads and calls carrying an idempotency key
    // are repeated after a 5xx or a lost connection. A 429 was refused, so it is always repeated.
    const replayable =
      spec.method === 'GET' || (spec.idempotencyHeader !== undefined && headers.has(spec.idempotencyHeader));

    for (let attempt = 1; ; attempt++) {
      const canRetry = attempt < this.retry.maxAttempts;
      const attemptUrl = new URL(url);
      const attemptHeaders = new Headers(headers);
      await this.options.signer?.({
        method: spec.method,
        url: attemptUrl,
        headers: attemptHeaders,
        body,
      });

      let response: Response;
      try {
        response = await this.fetch(attemptUrl, { method: spec.method, headers: attemptHeaders, body: sent ?? null, signal: input.signal ?? null });
      } catch (error) {
        if (!canRetry || !replayable || input.signal?.aborted === true) throw error;
        await pause(backoffDelay(this.retry, attempt - 1, this.random), input.signal, this.options.sleep);
        continue;
      }

      if (response.ok) {
        const parsed = await readBody(response, 'strict');
        return { status: response.status, headers: response.headers, body: parsed as T, requestId: requestIdOf(this.options.errorFormat, parsed, response.headers) };
      }
      const delay = canRetry ? this.retryDelay(response, attempt, replayable) : undefined;
      if (delay === undefined) {
        const parsed = await readBody(response, 'lenient');
        throw apiErrorFrom(this.options.errorFormat, spec.operationId, response.status, response.headers, parsed);
      }
      await response.body?.cancel(); // frees the connection; the body of a refused attempt is not needed
      await pause(delay, input.signal, this.options.sleep);
    }
  }

  /** Every item of a list operation, page after page; the caller's other query values are kept. */
  async *paginate<TItem>(spec: OperationSpec, input: RequestInput = {}, mode?: PageMode): AsyncIterableIterator<TItem> {
    const pagination = spec.pagination;
    if (pagination === undefined) throw new TypeError(`${spec.operationId} is not a paginated operation`);
    const chosen = mode ?? (pagination.modes.includes('cursor') ? 'cursor' : 'page');
    if (!pagination.modes.includes(chosen)) throw new TypeError(`${spec.operationId} has no ${chosen} pagination`);

    const plan = pagingPlan(this.options.errorFormat, chosen);
    let patch: Record<string, unknown> | undefined = plan.first;
    while (patch !== undefined) {
      const response: ApiResponse<unknown> = await this.request(spec, { ...input, query: { ...input.query, ...patch } });
      const items = itemsAt(response.body, pagination.items, spec.operationId);
      for (const item of items) yield item as TItem;
      // An empty page ends the walk even if the meta claims more: it would otherwise never end.
      patch = items.length === 0 ? undefined : plan.next(response.body);
    }
  }

  private headersFor(spec: OperationSpec, input: RequestInput, body: string | Uint8Array | undefined, contentType: string | undefined): Headers {
    const headers = new Headers(this.options.headers);
    if (this.options.token !== undefined) headers.set('authorization', `Bearer ${this.options.token}`);
    for (const [name, value] of Object.entries(input.headers ?? {})) {
      if (value !== undefined) headers.set(name, value);
    }
    if (typeof body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
    // A multipart body's content type carries its boundary; any other value would break it.
    if (contentType !== undefined) headers.set('content-type', contentType);

    const correlationId = this.options.correlationId;
    const declaresCorrelation = spec.headers.some((name) => name.toLowerCase() === CORRELATION_HEADER);
    if (correlationId !== undefined && declaresCorrelation && !headers.has(CORRELATION_HEADER)) {
      headers.set(CORRELATION_HEADER, typeof correlationId === 'string' ? correlationId : correlationId());
    }
    const key = spec.idempotencyHeader;
    if (key !== undefined && spec.method !== 'GET' && this.options.idempotency !== 'manual' && !headers.has(key)) {
      headers.set(key, randomUUID()); // set once, so every attempt repeats the same key
    }
    return headers;
  }

  /** The wait before repeating a failed attempt, or undefined when it must not be repeated. */
  private retryDelay(response: Response, attempt: number, replayable: boolean): number | undefined {
    if (response.status === 429) {
      const delay = retryAfterDelay(response.headers.get('retry-after'), Date.now()) ?? backoffDelay(this.retry, attempt - 1, this.random);
      return Math.min(delay, this.retry.maxDelayMs);
    }
    if (response.status >= 500 && replayable) return backoffDelay(this.retry, attempt - 1, this.random);
    return undefined;
  }
}

/** A request body encoded once: what the signer reads and what fetch sends, the same bytes. */
interface EncodedBody {
  /** JSON text, or the bytes of a multipart form (boundary included); undefined without a body. */
  body: string | Uint8Array | undefined;
  /**
   * The same, as fetch takes it. Bytes go as their ArrayBuffer: the DOM lib's BodyInit (in a
   * project's types when `lib` is unset or names DOM) refuses a Uint8Array that may view a
   * SharedArrayBuffer, and typing it `Uint8Array<ArrayBuffer>` would need TypeScript 5.7.
   */
  sent: string | ArrayBuffer | undefined;
  contentType?: string;
}

/**
 * The exact bytes sent, so the signer signs what goes on the wire: JSON text, or a multipart
 * form serialised once (boundary included) with the content type that names its boundary.
 */
async function encodeBody(spec: OperationSpec, body: unknown): Promise<EncodedBody> {
  if (body === undefined) return { body: undefined, sent: undefined };
  const form = body instanceof FormData ? body : spec.body?.contentType === 'multipart/form-data' ? formDataOf(spec, body) : undefined;
  if (form === undefined) {
    const json = JSON.stringify(body);
    return { body: json, sent: json };
  }
  const serialised = new Response(form);
  const contentType = serialised.headers.get('content-type') ?? undefined;
  const bytes = await serialised.arrayBuffer();
  return { body: new Uint8Array(bytes), sent: bytes, ...(contentType !== undefined ? { contentType } : {}) };
}

/**
 * The typed multipart body (`{ file: Blob, ... }`) as FormData: a Blob (a File keeps its name)
 * is a file part, any other value a text part; an array repeats its field.
 */
function formDataOf(spec: OperationSpec, body: unknown): FormData {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new TypeError(`${spec.operationId} takes a multipart body: pass an object of its fields or a FormData`);
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined) continue;
      form.append(name, item instanceof Blob ? item : typeof item === 'string' ? item : JSON.stringify(item));
    }
  }
  return form;
}

/** JSON when the answer says so, else the text; undefined when empty. Errors read leniently (a proxy's HTML). */
async function readBody(response: Response, mode: 'strict' | 'lenient'): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  if (!/[/+]json\b/i.test(response.headers.get('content-type') ?? '')) return text;
  if (mode === 'strict') return JSON.parse(text) as unknown;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
