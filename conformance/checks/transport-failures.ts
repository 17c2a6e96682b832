// The failures HTTP itself defines for a request no operation can take, each with its own status
// (RFC 9110, section 15.5). The code a family answers one with is the entry of that status in the
// family's catalog (x-error-codes), whose condition names it (`bad_request`: the body is not
// well-formed JSON; `method_not_allowed`: the path exists but not with this method; …); a catalog
// without exactly one code of the status does not say which code to expect.
import type { Family } from '../contract/families.js';
import type { RunContext } from '../context.js';

export const transportStatuses = {
  'malformed-body': 400,
  'unknown-path': 404,
  'wrong-method': 405,
  'body-too-large': 413,
  'media-type': 415,
} as const;

export type TransportFailure = keyof typeof transportStatuses;

export interface ExpectedError {
  status: number;
  code: string;
}

/** The status and catalog code of the failure; undefined, with a skip row, when the catalog does not name one. */
export function expectedError(context: RunContext, family: Family, operation: string, failure: TransportFailure): ExpectedError | undefined {
  const status = transportStatuses[failure];
  const codes = Object.entries(family.errorCodes).filter(([, entry]) => entry.status === status).map(([code]) => code);
  if (codes.length === 1) return { status, code: codes[0]! };
  const reason = codes.length === 0 ? 'no code' : `several codes (${codes.join(', ')})`;
  context.log.skip(operation, `transport:${failure}`, `not specified: the ${family.contract} catalog has ${reason} of HTTP ${status}`);
  return undefined;
}
