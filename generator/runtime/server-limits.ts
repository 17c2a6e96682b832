// The rate-limit and quota headers a contract's responses declare (`x-limit` on the header
// components names each one's window and value), for a generated router (its routeMiddleware,
// after the security middleware). The implementer plugs in a meter that counts the request for
// the caller and the operation; the middleware sets the declared headers from its reading and,
// when a window refuses, answers the code the catalog marks for it (`x-limit-failure`) with the
// contract's Retry-After header.
import type { Request, RequestHandler, Response } from 'express';
import { catalogError, type CatalogCode, type ContractErrors, type RouteDefinition } from './router-runtime.js';
import { callerOf, type Caller } from './server-security.js';

/** One declared header: the window it reports and which of its values. */
export interface LimitHeader {
  header: string;
  window: string;
  value: 'limit' | 'remaining' | 'reset';
}

/** One window as the meter reads it after counting the request. */
export interface WindowReading {
  limit: number;
  remaining: number;
  /** When the window resets, as Unix seconds. */
  reset: number;
}

export interface MeterReading<Window extends string> {
  windows: Record<Window, WindowReading>;
  /** The window that refuses this request, and the seconds until it admits one again. */
  refused?: { window: Window; retryAfterSeconds: number } | undefined;
}

/** What an implementer plugs in: counts one request (atomically) and reads every window. */
export interface LimitMeter<Window extends string> {
  meter(caller: Caller | undefined, route: RouteDefinition, req: Request): MeterReading<Window> | Promise<MeterReading<Window>>;
}

export interface LimitContract<Window extends string> {
  errors: ContractErrors;
  headers: readonly LimitHeader[];
  failures: Readonly<Record<Window, CatalogCode>>;
  retryAfterHeader: string;
  /** The operations whose responses declare the headers. */
  operations: readonly string[];
}

export function limitMiddleware<Window extends string>(contract: LimitContract<Window>, meter: LimitMeter<Window>): (route: RouteDefinition) => RequestHandler[] {
  const metered = new Set(contract.operations);
  return (route) => {
    if (!metered.has(route.operationId)) return [];
    const handle = async (req: Request, res: Response, next: () => void): Promise<void> => {
      const reading = await meter.meter(callerOf(res), route, req);
      for (const { header, window, value } of contract.headers) {
        const found = reading.windows[window as Window] as WindowReading | undefined;
        if (found !== undefined) res.setHeader(header, String(found[value]));
      }
      if (reading.refused === undefined) return next();
      const { window, retryAfterSeconds } = reading.refused;
      res.setHeader(contract.retryAfterHeader, String(retryAfterSeconds));
      const message = `The ${window} limit is exhausted; repeat the request in ${retryAfterSeconds} s.`;
      const { status, body } = catalogError(contract.errors, contract.failures[window], { req, res }, message);
      res.status(status).json(body);
    };
    return [(req, res, next) => void handle(req, res, next).catch(next)];
  };
}
