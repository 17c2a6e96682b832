// Reads a JSON request body within the family's size limit (its contract's
// info.x-body-limit-bytes), keeping the raw bytes (request signatures are computed over them),
// and parses it. A body without a Content-Type is read as JSON; another media type gets 415.
// Multipart bodies are left to their handler. A route whose body is `*/*` (the control API's
// webhook inbox) takes any bytes: they are kept raw for its handler, never parsed or refused.
import express, { type RequestHandler } from 'express';
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import { families } from './families.js';
import { HttpError } from './http-error.js';
import { requestLocals } from './locals.js';

/** The raw body of every request that has none (empty, so nothing can change it). */
const noBody = Buffer.alloc(0);

export function readBody(route: RouteDefinition, limitBytes: number): RequestHandler[] {
  const raw = express.raw({ type: () => true, limit: limitBytes });
  return [
    (req, res, next) => {
      if (route.body?.contentType.startsWith('multipart/')) {
        next();
        return;
      }
      // A request that announces no body (no Content-Length, no Transfer-Encoding: most GETs)
      // has none to read; skipping the parser here is a measurable share of a small request.
      if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
        requestLocals(res).rawBody = noBody;
        req.body = undefined;
        next();
        return;
      }
      raw(req, res, (error?: unknown) => {
        if (error !== undefined) {
          next(error);
          return;
        }
        const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        requestLocals(res).rawBody = bytes;
        req.body = undefined;
        if (bytes.length === 0) {
          next();
          return;
        }
        const codes = families[requestLocals(res).family].codes;
        if (route.body === undefined || route.body.contentType === '*/*') {
          next();
          return;
        }
        if (req.get('content-type') !== undefined && !req.is('application/json') && !req.is('+json')) {
          next(new HttpError(codes.unsupportedMediaType, 'Send the body as application/json.'));
          return;
        }
        try {
          req.body = JSON.parse(bytes.toString('utf8'));
          next();
        } catch {
          next(new HttpError(codes.badRequest, 'The request body is not valid JSON.'));
        }
      });
    },
  ];
}
