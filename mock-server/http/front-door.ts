// The mock's node:http request listener. A request under an API family's path prefix goes
// straight to that family's chain (context, the generated dispatcher, platform steps, handler,
// 404/405); everything else (/docs, /__mock, unknown paths) goes to the express app. Express's
// application router in front of the families cost about a sixth of a small API request's CPU
// in profiles (per request it parses the URL, matches each layer's mount path and wraps every
// step), and the families need none of it: they dispatch by their own table.
// The chain still gets express's request and response, set up as express's app.handle and a
// mount path would set them up, so middleware and handlers keep using req.get, req.ip, res.set,
// res.status and res.locals.
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';
import { IncomingMessage, ServerResponse, type RequestListener } from 'node:http';
import { runChain } from '../../generated/runtime/router-runtime.js';

export interface FamilyMount {
  /** The path prefix the family lives under, e.g. `/api/v3`; matched as express matches a mount path. */
  prefix: string;
  /** Take the prefix off req.url (as `app.use(prefix, …)` does), for a dispatcher of paths below it. */
  strip: boolean;
  /** Must answer every request it gets (it ends in the family's 404/405). */
  chain: readonly RequestHandler[];
}

export function frontDoor(app: Express, mounts: readonly FamilyMount[], onError: ErrorRequestHandler): RequestListener {
  const prefixes = mounts.map((mount) => ({ mount, lowered: mount.prefix.toLowerCase() }));
  return (incoming, outgoing) => {
    const url = incoming.url ?? '/';
    const found = prefixes.find(({ lowered }) => underPrefix(url, lowered));
    if (found === undefined) {
      app(incoming, outgoing);
      return;
    }
    const { req, res } = asExpress(app, incoming, outgoing);
    if (found.mount.strip) {
      const rest = url.slice(found.lowered.length);
      req.baseUrl = url.slice(0, found.lowered.length);
      req.url = rest.startsWith('/') ? rest : `/${rest}`;
    }
    runChain(found.mount.chain, req, res, (error?: unknown) => {
      const failure = error ?? new Error(`${found.mount.prefix}: the family's chain answered nothing for ${req.method} ${req.originalUrl}`);
      // The error handler passes an error on only when the answer has started: drop the connection, as express does.
      onError(failure, req, res, () => req.socket.destroy());
    });
  };
}

/** Express's mount-path match: case-insensitive, and the prefix must end at a path separator (or the path). */
export function underPrefix(url: string, loweredPrefix: string): boolean {
  if (url.length < loweredPrefix.length || url.slice(0, loweredPrefix.length).toLowerCase() !== loweredPrefix) return false;
  const after = url[loweredPrefix.length];
  return after === undefined || after === '/' || after === '?';
}

/**
 * The request and response classes of a node:http server (its IncomingMessage and ServerResponse
 * options) whose objects are born with express's prototypes for `app`. Express gives each request
 * and response its prototypes with Object.setPrototypeOf, and an object whose prototype changes
 * after it was made puts V8's inline caches on node's own HTTP code off their fast paths: that
 * cost about 50 µs of CPU per request (a bare node:http answer costs about 15). A server made
 * with these gives asExpress nothing to change; any other server still works, at that cost.
 */
export function expressMessages(app: Express): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  return { IncomingMessage: bornWith(IncomingMessage, app.request), ServerResponse: bornWith(ServerResponse, app.response) };
}

/** A subclass constructor of node's `base` (a plain function constructor) whose instances have `prototype`, itself derived from base's. */
function bornWith<Base extends typeof IncomingMessage | typeof ServerResponse>(base: Base, prototype: object): Base {
  if (!(prototype instanceof base)) throw new Error(`express's prototype does not derive from node's ${base.name}`);
  // node constructs them as `new IncomingMessage(socket)` and `new ServerResponse(req, options)`.
  function Born(this: object, first: unknown, second: unknown): void {
    (base as unknown as (first: unknown, second: unknown) => void).call(this, first, second);
  }
  Born.prototype = prototype;
  return Born as unknown as Base;
}

/** What express's app.handle does to every request before its router sees it. */
function asExpress(app: Express, incoming: IncomingMessage, outgoing: ServerResponse): { req: Request; res: Response } {
  // Setting the prototype an object already has changes nothing (a server made with expressMessages).
  const req = Object.setPrototypeOf(incoming, app.request) as Request;
  const res = Object.setPrototypeOf(outgoing, app.response) as Response;
  req.res = res;
  res.req = req;
  res.locals = Object.create(null) as Response['locals'];
  req.originalUrl = req.url;
  req.baseUrl = '';
  return { req, res };
}
