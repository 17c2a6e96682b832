// The three API families the mock serves and how each renders its bodies: the v3 envelope
// (description 2.1; the sandbox control API uses it too) or the v1 body. Error statuses come
// from each contract's error catalog, generated from x-error-codes.
import type { Response } from 'express';
import { depositV1ErrorCodes } from '../../generated/deposit-v1/contract-data.js';
import { exchangeV3ErrorCodes } from '../../generated/exchange-v3/contract-data.js';
import { sandboxControlErrorCodes } from '../../generated/sandbox-control/contract-data.js';
import { errorBody, successBody, type ResponseIds } from '../../generated/runtime/server-envelope.js';
import type { Clock } from '../clock.js';
import { isoTime } from '../iso-time.js';
import { HttpError } from './http-error.js';
import { bodyPending } from './pending-body.js';
import { requestLocals, type FamilyName } from './locals.js';

type Catalog = Readonly<Record<string, { readonly status: number }>>;

interface FamilyFormat {
  catalog: Catalog;
  /** Codes of the generic failures every family has. */
  codes: {
    badRequest: string; notFound: string; methodNotAllowed: string; requestTimeout: string; payloadTooLarge: string; unsupportedMediaType: string;
    headersTooLarge: string; validation: string; internal: string;
  };
}

export const families: Record<FamilyName, FamilyFormat> = {
  v3: { catalog: exchangeV3ErrorCodes, codes: lowerCodes() },
  control: { catalog: sandboxControlErrorCodes, codes: lowerCodes() },
  v1: {
    catalog: depositV1ErrorCodes,
    codes: {
      badRequest: 'BAD_REQUEST', notFound: 'NOT_FOUND', methodNotAllowed: 'METHOD_NOT_ALLOWED', requestTimeout: 'REQUEST_TIMEOUT', payloadTooLarge: 'PAYLOAD_TOO_LARGE',
      unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE', headersTooLarge: 'REQUEST_HEADER_FIELDS_TOO_LARGE', validation: 'VALIDATION_ERROR', internal: 'INTERNAL_ERROR',
    },
  },
};

function lowerCodes(): FamilyFormat['codes'] {
  return {
    badRequest: 'bad_request', notFound: 'not_found', methodNotAllowed: 'method_not_allowed', requestTimeout: 'request_timeout', payloadTooLarge: 'payload_too_large',
    unsupportedMediaType: 'unsupported_media_type', headersTooLarge: 'request_header_fields_too_large', validation: 'validation_error', internal: 'internal_error',
  };
}

/** The HTTP status of a code in a family's catalog; an unknown code is a bug (500). */
export function statusOf(family: FamilyName, code: string): number {
  return families[family].catalog[code]?.status ?? 500;
}

/** The ids of this response (request id, correlation id, the sandbox clock's time), for the generated envelope helpers. */
export function responseIds(res: Response, clock: Clock): ResponseIds {
  const locals = requestLocals(res);
  return idsAt(clock, locals.requestId, locals.correlationId);
}

/** The ids of an answer: the request id, the correlation id (null: none) and the sandbox clock's time. */
export function idsAt(clock: Clock, requestId: string, correlationId: string | null = null): ResponseIds {
  return { requestId, correlationId, timestamp: isoTime(clock.nowMs()) };
}

/** The body format of the request's family (the control API uses the v3 envelope). */
export function formatOf(res: Response): 'v3-envelope' | 'v1' {
  return familyFormat(requestLocals(res).family);
}

/** A family's body format (the control API uses the v3 envelope). */
export function familyFormat(family: FamilyName): 'v3-envelope' | 'v1' {
  return family === 'v1' ? 'v1' : 'v3-envelope';
}

/** A success body: the v3 envelope around `result`, or v1's `{ data, meta? }`. */
export function successOf(res: Response, clock: Clock, payload: unknown, meta?: Record<string, unknown>): Record<string, unknown> {
  return successBody(formatOf(res), responseIds(res, clock), payload, meta);
}

/**
 * Writes an error in the family's format with the catalog's status. When the request's body has
 * not all arrived (refused before or while it was read), the connection closes after the
 * answer: waiting for the rest would let a client hold it open with a body it never sends.
 */
export function sendError(res: Response, clock: Clock, error: HttpError): void {
  const status = statusOf(requestLocals(res).family, error.code);
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  if (bodyPending(res.req)) res.setHeader('Connection', 'close');
  res.status(status).json(errorBody(formatOf(res), responseIds(res, clock), error.code, error.message, error.details));
}

export { HttpError };
