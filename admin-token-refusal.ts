// How a command that talks to a running mock's control API (listen, trigger, conformance
// --sandbox) reports the mock refusing its admin token. The mock gives the same answer whether no
// token came or a wrong one, so only the command knows which it was: without a token the line
// says the mock needs one and how to give it; with one, that the mock refused the token given
// there (`--admin-token`, `MOCK_ADMIN_TOKEN`), never that none was given. At the package's root:
// the command line and the conformance runner both use it.
import type { SandboxControlErrorCode } from './generated/sandbox-control/contract-data.js';

/** Whether an answer of the mock's control API refuses the request for its admin token (or its lack of one). */
export function refusesAdminToken(status: number): boolean {
  return status === 401 || status === 403;
}

// A mock started without an admin token answers a request sent to it by a dotted host name with
// this code (a DNS-rebinding page sends its own name): no token the command gives can help.
const otherOriginCode = 'cross_origin_request' satisfies SandboxControlErrorCode;

/**
 * The line for an answer that refusesAdminToken (`code`: its error code, when it had one): `from`
 * is where the token sent was given (undefined: none was sent), `howToGive` the ways the command
 * takes one.
 */
export function adminTokenRefusal(status: number, code: string | undefined, from: string | undefined, howToGive: string): string {
  if (code === otherOriginCode) {
    return `the mock refuses its control API to a request sent by a host name other than an IP address, localhost or a single-label name (HTTP ${status} ${code}): start it with --admin-token and give that token here with ${howToGive}, or reach it by its IP address`;
  }
  if (from === undefined) return `the mock's control API needs its admin token (HTTP ${status}): give it with ${howToGive}`;
  return `the mock refused the admin token given in ${from} (HTTP ${status}): it is not the one the mock was started with`;
}
