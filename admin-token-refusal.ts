// How a command that talks to a running mock's control API (listen, trigger, conformance
// --sandbox) reports the mock refusing its admin token. The mock gives the same answer whether no
// token came or a wrong one, so only the command knows which it was: without a token the line
// says the mock needs one and how to give it; with one, that the mock refused the token given
// there (`--admin-token`, `MOCK_ADMIN_TOKEN`), never that none was given. At the package's root:
// the command line and the conformance runner both use it.

/** Whether an answer of the mock's control API refuses the request for its admin token (or its lack of one). */
export function refusesAdminToken(status: number): boolean {
  return status === 401 || status === 403;
}

/**
 * The line for an answer that refusesAdminToken: `from` is where the token sent was given
 * (undefined: none was sent), `howToGive` the ways the command takes one.
 */
export function adminTokenRefusal(status: number, from: string | undefined, howToGive: string): string {
  if (from === undefined) return `the mock's control API needs its admin token (HTTP ${status}): give it with ${howToGive}`;
  return `the mock refused the admin token given in ${from} (HTTP ${status}): it is not the one the mock was started with`;
}
