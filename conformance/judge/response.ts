// Judges one recorded answer of one operation against the contract, aspect by aspect: is the
// status documented, is the content type the documented one, is the body a well-formed envelope
// of the family (an error code from the catalog with its status, the request id matching the
// header), does it validate against the generated response validator, are the headers the
// response declares required present. Each aspect gives a list of problems; empty means it conforms.
import { documentedResponses, errorMediaTypes } from '../contract/document.js';
import type { Family } from '../contract/families.js';
import type { RecordedExchange } from '../http/exchange-log.js';

export const responseAspects = ['status', 'content-type', 'envelope', 'schema', 'headers'] as const;
export type ResponseAspect = (typeof responseAspects)[number];
export type Judgement = Record<ResponseAspect, string[]>;

const maxSchemaErrors = 3;

export function judgeResponse(family: Family, operationId: string, exchange: RecordedExchange): Judgement {
  const judgement: Judgement = { status: [], 'content-type': [], envelope: [], schema: [], headers: [] };
  const documented = documentedResponses(family.contract, operationId).get(String(exchange.status));
  if (documented === undefined) {
    const code = errorCodeOf(exchange);
    // A server that answers the catalog's 501 code (a scaffolded handler) has not implemented the operation yet.
    const notImplemented = code !== undefined && exchange.status === 501 && family.errorCodes[code]?.status === 501;
    judgement.status.push(
      notImplemented ? `not implemented: HTTP 501 ${code}` : `HTTP ${exchange.status}${errorCodeSuffix(exchange)} is not documented for ${operationId}`,
    );
    return judgement;
  }

  const mediaType = mediaTypeOf(exchange);
  if (documented.contentTypes.length > 0 && !documented.contentTypes.includes(mediaType)) {
    judgement['content-type'].push(`Content-Type ${mediaType || '(none)'}, documented: ${documented.contentTypes.join(', ')}`);
  }

  for (const header of documented.headers) {
    if (header.required && !exchange.headers.has(header.name)) judgement.headers.push(`header ${header.name} missing`);
  }

  if (!documented.contentTypes.includes('application/json')) return judgement;
  let body: unknown;
  try {
    body = JSON.parse(exchange.bodyText);
  } catch {
    judgement.envelope.push('the body is not valid JSON');
    return judgement;
  }
  judgement.envelope.push(...envelopeProblems(family, exchange, body));

  const validate = family.validators[operationId]?.responses[String(exchange.status)];
  if (validate !== undefined && !validate(body)) {
    const errors = (validate.errors ?? []).slice(0, maxSchemaErrors).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
    judgement.schema.push(`body does not match the contract: ${errors.join(', ')}`);
  }
  return judgement;
}

/**
 * Problems of an error answer that no operation documents (a path or a method no operation has):
 * it must still be an error of the family as its operations document theirs, in their media type
 * and the family's error body (x-error-format), whose code is in the catalog with this status.
 */
export function judgeUnroutedError(family: Family, exchange: RecordedExchange): string[] {
  const mediaType = mediaTypeOf(exchange);
  const documented = errorMediaTypes(family.contract);
  const problems = documented.has(mediaType) ? [] : [`Content-Type ${mediaType || '(none)'}, documented for errors: ${[...documented].join(', ')}`];
  let body: unknown;
  try {
    body = JSON.parse(exchange.bodyText);
  } catch {
    return [...problems, 'the body is not valid JSON'];
  }
  return [...problems, ...envelopeProblems(family, exchange, body)];
}

/** Every problem of a judgement, prefixed with its aspect. */
export function problemsOf(judgement: Judgement): string[] {
  return responseAspects.flatMap((aspect) => judgement[aspect].map((problem) => `${aspect}: ${problem}`));
}

function mediaTypeOf(exchange: RecordedExchange): string {
  return (exchange.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

function envelopeProblems(family: Family, exchange: RecordedExchange, body: unknown): string[] {
  if (!isRecord(body)) return ['the body is not a JSON object'];
  const problems: string[] = [];
  const success = exchange.status >= 200 && exchange.status < 300;
  if (family.errorFormat === 'v3-envelope') {
    if (success && body.state !== 0) problems.push(`a success carries state ${JSON.stringify(body.state)}, not 0`);
    if (!success && (typeof body.state !== 'number' || body.state === 0)) problems.push('an error carries state 0');
  }
  if (!success) {
    const code = isRecord(body.error) ? body.error.code : undefined;
    const entry = typeof code === 'string' ? family.errorCodes[code] : undefined;
    if (typeof code !== 'string') problems.push('the error has no error.code');
    else if (entry === undefined) problems.push(`error code ${code} is not in the contract's catalog`);
    else if (entry.status !== exchange.status) problems.push(`error code ${code} belongs to HTTP ${entry.status}, answered with ${exchange.status}`);
  }
  const bodyRequestId = family.errorFormat === 'v3-envelope' ? (isRecord(body.meta) ? body.meta.request_id : undefined) : body.requestId;
  const headerRequestId = exchange.headers.get('x-request-id');
  if (typeof bodyRequestId === 'string' && headerRequestId !== null && bodyRequestId !== headerRequestId) {
    problems.push(`the body's request id ${bodyRequestId} differs from X-Request-Id ${headerRequestId}`);
  }
  return problems;
}

/** ` (scope_denied)` when the body names an error code, for messages about statuses. */
export function errorCodeSuffix(exchange: RecordedExchange): string {
  const code = errorCodeOf(exchange);
  return code === undefined ? '' : ` (${code})`;
}

/** ` (validation_error: The request is invalid. body.amount: must be a decimal)`: what an error answer says. */
export function errorSummary(exchange: RecordedExchange): string {
  let body: unknown;
  try {
    body = JSON.parse(exchange.bodyText);
  } catch {
    return '';
  }
  if (!isRecord(body) || !isRecord(body.error)) return '';
  const message = typeof body.message === 'string' ? body.message : typeof body.error.message === 'string' ? body.error.message : '';
  const details = isRecord(body.error.details)
    ? Object.entries(body.error.details).map(([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.join(', ') : String(messages)}`)
    : [];
  const text = [message, ...details].filter((part) => part !== '').join('; ');
  return ` (${String(body.error.code)}${text === '' ? '' : `: ${text}`})`;
}

export function errorCodeOf(exchange: RecordedExchange): string | undefined {
  try {
    const body: unknown = JSON.parse(exchange.bodyText);
    const code = isRecord(body) && isRecord(body.error) ? body.error.code : undefined;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
