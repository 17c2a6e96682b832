// Non-2xx answers as typed errors, read from the error body of the API family: the v3 envelope
// (`error.code`, `error.details`, `meta.request_id`) or the v1 body (`error.code`,
// `error.details`, `requestId`). Bodies of another shape (a proxy's HTML 502) still give an
// error: code `http_<status>`, the request id from the X-Request-Id header.
// Fields of a body read as a record are read with brackets, as a project compiling with
// noPropertyAccessFromIndexSignature requires.

export type ErrorFormat = 'v3-envelope' | 'v1';

// Every copy of this file (the kit's own clients, the copy `generate --out` writes into a
// project, a second version of the kit) defines its own class, so `instanceof` alone would miss
// an error thrown by another copy's client: a project catching its generated ApiError around
// the kit's mockClients. Each instance carries one registry-wide mark, and `instanceof ApiError`
// accepts any instance that has it. A subclass keeps the ordinary check.
const apiErrorMark = Symbol.for('exchange-api-kit.ApiError');

export class ApiError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== ApiError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as { [apiErrorMark]?: unknown })[apiErrorMark] === true;
  }

  override readonly name = 'ApiError';
  readonly [apiErrorMark] = true;
  readonly status: number;
  /** `error.code` of the body, or `http_<status>` when the body has none. */
  readonly code: string;
  /** Field (dot path) to its messages; empty when the body gives none. */
  readonly details: Record<string, string[]>;
  readonly requestId: string | undefined;
  /** The parsed JSON body, or the raw text when it is not JSON, or undefined when empty. */
  readonly body: unknown;
  readonly operationId: string;

  constructor(init: {
    operationId: string;
    status: number;
    code: string;
    details: Record<string, string[]>;
    requestId: string | undefined;
    body: unknown;
    message: string | undefined;
  }) {
    const reason = [init.message, firstDetail(init.details)].filter((part) => part !== undefined).join(' ');
    super(`${init.operationId} failed with HTTP ${init.status} ${init.code}${reason === '' ? '' : `: ${reason}`}`);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.body = init.body;
    this.operationId = init.operationId;
  }
}

export function apiErrorFrom(
  format: ErrorFormat,
  operationId: string,
  status: number,
  headers: Headers,
  body: unknown,
): ApiError {
  const error = isRecord(body) && isRecord(body['error']) ? body['error'] : undefined;
  const code = typeof error?.['code'] === 'string' ? error['code'] : `http_${status}`;
  // v3 carries the human message at the top level, v1 inside `error`.
  const message = format === 'v3-envelope' ? (isRecord(body) ? body['message'] : undefined) : error?.['message'];
  return new ApiError({
    operationId,
    status,
    code,
    details: detailsOf(error?.['details']),
    requestId: requestIdOf(format, body, headers),
    body,
    message: typeof message === 'string' ? message : undefined,
  });
}

/** The request id of a response: from the body where the family puts it, else X-Request-Id. */
export function requestIdOf(format: ErrorFormat, body: unknown, headers: Headers): string | undefined {
  const fromBody =
    format === 'v3-envelope'
      ? isRecord(body) && isRecord(body['meta'])
        ? body['meta']['request_id']
        : undefined
      : isRecord(body)
        ? body['requestId']
        : undefined;
  return typeof fromBody === 'string' ? fromBody : (headers.get('x-request-id') ?? undefined);
}

/**
 * `(body.amount: must be positive)`: the first field's messages, and how many other fields have
 * some, so a thrown error says what to fix without the caller reading `details`.
 */
function firstDetail(details: Record<string, string[]>): string | undefined {
  const fields = Object.entries(details).filter(([, messages]) => messages.length > 0);
  const [first] = fields;
  if (first === undefined) return undefined;
  const more = fields.length > 1 ? `; ${fields.length - 1} more field${fields.length > 2 ? 's' : ''}` : '';
  return `(${first[0]}: ${first[1].join(', ')}${more})`;
}

/** Keeps the entries that are lists of strings; anything else in `details` is not ours to type. */
function detailsOf(raw: unknown): Record<string, string[]> {
  const details: Record<string, string[]> = {};
  if (!isRecord(raw)) return details;
  for (const [field, messages] of Object.entries(raw)) {
    if (Array.isArray(messages) && messages.every((m) => typeof m === 'string')) details[field] = messages;
  }
  return details;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
