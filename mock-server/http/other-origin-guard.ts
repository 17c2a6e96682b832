// Keeps web pages of other origins out of an open control API (a mock without an admin token, as
// `npm start` runs on a laptop). Such an API has no credential a forged request would lack: a page
// on any site could POST a form or a no-cors fetch to http://127.0.0.1:4010/__mock/reset and the
// mock would obey. What tells that request from the inspector's, /docs' or curl's is what the
// browser adds to it, headers a page cannot set or remove:
// - `Origin`: sent with every cross-origin request and every POST; it must name the mock itself,
//   the host the request was sent to (the scheme is not compared: behind a TLS proxy the page is
//   https and the mock plain http). `null` (a sandboxed frame, a file:// page) is never the mock.
// - `Sec-Fetch-Site`: sent by current browsers to localhost and https, for GETs too (an <img> or
//   <script> pointed at the API sends no Origin). `cross-site` and `same-site` (another port of
//   localhost is same-site) are refused; `same-origin` and `none` (the address bar) pass.
// - `Host`: a DNS-rebinding page (its name first resolving to the attacker, then to 127.0.0.1)
//   is same-origin with itself, so its headers pass the two checks above; but the Host it sends
//   is its public DNS name. The mock answers only a name that cannot have come from public DNS:
//   an IP address, `localhost` or `*.localhost`, or a single-label name (a container's service
//   name, `mock`). A mock reached by a dotted name is a remote one: --admin-token protects it.
// Clients that are not browsers send none of these but Host, so they are unaffected.
import { isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import type { SandboxControlErrorCode } from '../../generated/sandbox-control/contract-data.js';
import { HttpError } from './http-error.js';

const refusal = 'cross_origin_request' satisfies SandboxControlErrorCode;

/** The middleware: a request a browser sent for a page of another origin gets 403 before anything runs. */
export function refuseOtherOrigins(): RequestHandler {
  return (req, _res, next) => {
    const reason = otherOriginReason(req.headers);
    next(reason === undefined ? undefined : new HttpError(refusal, `The sandbox control API refuses a request from a page of another origin (${reason}): without an admin token, only the mock's own pages and clients that are not browsers may call it.`));
  };
}

/** Why these headers show a page of another origin (the header and its value), or undefined when they do not. */
function otherOriginReason(headers: IncomingHttpHeaders): string | undefined {
  const host = headers.host;
  // Where the request was sent; a request without Host came from no browser (HTTP/1.0 by hand).
  const self = host === undefined ? undefined : urlOf(`http://${host}`);
  if (host !== undefined && (self === undefined || !isRebindingProof(self.hostname))) return `Host: ${host}`;
  const site = headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return `Sec-Fetch-Site: ${site}`;
  // URL.host is lower-cased and drops a default port, as browsers write Host and Origin.
  const origin = headers.origin;
  if (origin !== undefined && (self === undefined || urlOf(origin)?.host !== self.host)) return `Origin: ${origin}`;
  return undefined;
}

/** Whether a host name is one no public DNS name can be (see the top of this file). */
function isRebindingProof(hostname: string): boolean {
  const name = hostname.replace(/\.$/, '');
  if (isIP(name.replace(/^\[|\]$/g, '')) !== 0) return true;
  return !name.includes('.') || name.endsWith('.localhost');
}

function urlOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
