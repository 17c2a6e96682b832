// `serve --replay DIR`: the first step of the v3 and v1 chains after the request context. A request
// a recording matches (replay-book.ts) gets the recorded answer, with `X-Mock-Replayed-From`
// naming the fixture file; any other goes on to the simulation, or, with --replay-only, gets 404
// in the family's error format. A body is read only when a recording of the same method, path
// and query exists, within the family's size limit, and is left for the body step when no
// recording takes it (that step then reuses the bytes instead of reading the stream again).
import type { RequestHandler, Response } from 'express';
import type { Clock } from '../clock.js';
import { families, sendError } from '../http/families.js';
import { HttpError } from '../http/http-error.js';
import { requestLocals } from '../http/locals.js';
import { readBodyBytes } from '../http/streamed-body.js';
import { bodyBytes, type LoadedFixture } from './fixture-format.js';
import { ReplayBook, type ReplayOptions } from './replay-book.js';

export const replayedFromHeader = 'X-Mock-Replayed-From';

/** Headers not copied from a recording: hop-by-hop ones, and those the body written here sets. */
const notReplayed = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authenticate', 'content-length', 'content-encoding']);

export function replayStep(options: ReplayOptions, clock: Clock, limitBytes: number): RequestHandler {
  return (req, res, next) => {
    const url = req.originalUrl;
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    const query = mark === -1 ? '' : url.slice(mark + 1);
    const settle = (body: Buffer): void => {
      const found = options.book.take(req.method, path, query, body, req.get('content-type'));
      if (found !== undefined) answer(res, found, req.method === 'HEAD');
      else if (options.only) sendError(res, clock, new HttpError(families[requestLocals(res).family].codes.notFound, `No recorded exchange matches ${req.method} ${path} (the mock runs with --replay-only).`));
      else next();
    };
    const announcesBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    // A multipart upload is matched without its body: its handler must read the stream itself.
    if (!options.book.has(req.method, path, query) || !ReplayBook.matchesBody(req.method) || !announcesBody || req.is('multipart/*')) {
      settle(Buffer.alloc(0));
      return;
    }
    readBodyBytes(req, limitBytes, (error, bytes) => {
      if (error !== undefined) {
        next(error);
        return;
      }
      req.body = bytes; // the body step reuses it when no recording takes the request
      settle(bytes ?? Buffer.alloc(0));
    });
  };
}

function answer(res: Response, { file, fixture }: LoadedFixture, head: boolean): void {
  const { status, headers, body } = fixture.response;
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) if (!notReplayed.has(name.toLowerCase())) res.setHeader(name, value);
  res.setHeader(replayedFromHeader, file);
  const bytes = body === null ? Buffer.alloc(0) : bodyBytes(body);
  res.setHeader('Content-Length', bytes.length);
  res.end(head ? undefined : bytes);
}
