// The three API families the mock serves and how each renders its bodies: the v3 envelope
// (description 2.1; the sandbox control API uses it too) or the v1 body. Error statuses come
// from each contract's error catalog, generated from x-error-codes.
import type { Response } from 'express';
import { depositV1ErrorCodes } from '../../generated/deposit-v1/contract-data.js';
import { exchangeV3ErrorCodes } from '../../generated/exchange-v3/contract-data.js';
import { sandboxControlErrorCodes } from '../../generated/sandbox-control/contract-data.js';
import { fieldErrors, type FieldErrors } from '../../generated/runtime/field-errors.js';
import type { Clock } from '../clock.js';
import { HttpError } from './http-error.js';
import { bodyPending } from './pending-body.js';
import { requestLocals, type FamilyName } from './locals.js';

type Catalog = Readonly<Record<string, { readonly status: number }>>;

interface FamilyFormat {
  catalog: Catalog;
  /** Codes of the generic failures every family has. */
  codes: { badRequest: string; notFound: string; methodNotAllowed: string; payloadTooLarge: string; unsupportedMediaType: string; validation: string; internal: string };
}

export const families: Record<FamilyName, FamilyFormat> = {
  v3: { catalog: exchangeV3ErrorCodes, codes: lowerCodes() },
  control: { catalog: sandboxControlErrorCodes, codes: lowerCodes() },
  v1: {
    catalog: depositV1ErrorCodes,
    codes: {
      badRequest: 'BAD_REQUEST', notFound: 'NOT_FOUND', methodNotAllowed: 'METHOD_NOT_ALLOWED', payloadTooLarge: 'PAYLOAD_TOO_LARGE',
      unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE', validation: 'VALIDATION_ERROR', internal: 'INTERNAL_ERROR',
    },
  },
};

function lowerCodes(): FamilyFormat['codes'] {
  return {
    badRequest: 'bad_request', notFound: 'not_found', methodNotAllowed: 'method_not_allowed', payloadTooLarge: 'payload_too_large',
    unsupportedMediaType: 'unsupported_media_type', validation: 'validation_error', internal: 'internal_error',
  };
}

/** The HTTP status of a code in a family's catalog; an unknown code is a bug (500). */
export function statusOf(family: FamilyName, code: string): number {
  return families[family].catalog[code]?.status ?? 500;
}

/** The `meta` of a v3 envelope for this response. */
export function envelopeMeta(res: Response, clock: Clock, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const locals = requestLocals(res);
  return { request_id: locals.requestId, correlation_id: locals.correlationId, timestamp: clock.now().toISOString(), ...extra };
}

/** Writes a success body: the v3 envelope around `result`, or v1's `{ data, meta? }`. */
export function sendSuccess(res: Response, clock: Clock, status: number, payload: unknown, meta?: Record<string, unknown>): void {
  const locals = requestLocals(res);
  if (locals.family === 'v1') {
    res.status(status).json(meta === undefined ? { data: payload } : { data: payload, meta });
    return;
  }
  res.status(status).json({ state: 0, message: 'OK', result: payload, meta: envelopeMeta(res, clock, meta) });
}

/**
 * Writes an error in the family's format with the catalog's status. When the request's body has
 * not all arrived (refused before or while it was read), the connection closes after the
 * answer: waiting for the rest would let a client hold it open with a body it never sends.
 */
export function sendError(res: Response, clock: Clock, error: HttpError): void {
  const locals = requestLocals(res);
  const status = statusOf(locals.family, error.code);
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  if (bodyPending(res.req)) res.setHeader('Connection', 'close');
  if (locals.family === 'v1') {
    res.status(status).json({ error: { code: error.code, message: error.message, ...detailsOf(error) }, requestId: locals.requestId });
    return;
  }
  res.status(status).json({ state: 1, message: error.message, result: null, error: { code: error.code, ...detailsOf(error) }, meta: envelopeMeta(res, clock) });
}

/** `details` keyed by field name and, for fields of the request, `locations` (field-errors.ts). */
function detailsOf(error: HttpError): Partial<FieldErrors> {
  if (error.details === undefined) return {};
  const { details, locations } = fieldErrors(error.details);
  return Object.keys(locations).length > 0 ? { details, locations } : { details };
}

export { HttpError };
