// The admin token a command sends to a running mock's control API (listen, trigger, conformance
// --sandbox) and how each of them reports the mock refusing it. The mock gives the same answer
// whether no token came or a wrong one, so only the command knows which it was: without a token
// the line says the mock needs one and how to give it; with one, that the mock refused the token
// given there (`--admin-token`, `MOCK_ADMIN_TOKEN`), never that none was given.
import { mockClientOptions, type OptionValues } from './options.js';

/** An admin token and where it was given, as a message names it. */
export interface AdminToken {
  value: string;
  from: string;
}

const option = mockClientOptions.find((spec) => spec.name === 'admin-token')!;

/** The admin token among readOptions' values and sources, if one was given. */
export function adminTokenOf(values: OptionValues, sources: Readonly<Record<string, string>>): AdminToken | undefined {
  const value = values[option.name];
  return typeof value === 'string' ? { value, from: sources[option.name] ?? `--${option.name}` } : undefined;
}

/** Whether an answer of the mock's control API refuses the request for its admin token (or its lack of one). */
export function refusesAdminToken(status: number): boolean {
  return status === 401 || status === 403;
}

/**
 * The line for an answer that refusesAdminToken: `from` is where the token sent was given
 * (undefined: none was sent), `howToGive` the ways the command takes one.
 */
export function adminTokenRefusal(status: number, from: string | undefined, howToGive = `--${option.name} or ${option.env}`): string {
  if (from === undefined) return `the mock's control API needs its admin token (HTTP ${status}): give it with ${howToGive}`;
  return `the mock refused the admin token given in ${from} (HTTP ${status}): it is not the one the mock was started with`;
}
