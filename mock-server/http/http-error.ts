// A failure with a code from a family's error catalog (contracts' x-error-codes). Middleware and
// handlers throw it (or pass it to next); the error handler renders it in the family's format
// with the catalog's HTTP status.
export class HttpError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Keyed `location.field` (`body.amount`) for fields of the request; rendered by field name (field-errors.ts). */
    readonly details?: Record<string, string[]>,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
