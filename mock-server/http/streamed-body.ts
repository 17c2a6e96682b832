// A request body read whole, within a limit counted on its decoded bytes. A body that announces
// its length and no encoding takes the short path (plain-body.ts); a chunked or compressed one is
// decoded as it streams and refused (413) the moment it passes the limit, not once the client
// has finished sending: body-parser, used here before, drained the whole body first, so a client
// could stream hundreds of megabytes at a connection that would only then hear 413. The answer
// closes the connection (families.ts); what still arrives meanwhile is dropped unread.
// Failures carry the `status` and `type` body-parser gives the same faults, so body.ts maps them
// as before.
import type { IncomingMessage } from 'node:http';
import { decodedBody } from './content-encoding.js';
import { isPlainBody, readError, readPlainBody, streamFault, type Done } from './plain-body.js';

/**
 * Reads `req`'s body whole; `done` is called once, with the bytes or a 4xx error. A body an
 * earlier step read already (the replay step keeps it as `req.body`) is handed on as it is.
 */
export function readBodyBytes(req: IncomingMessage & { body?: unknown }, limit: number, done: Done): void {
  if (req.readableEnded) done(undefined, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
  else if (isPlainBody(req)) readPlainBody(req, limit, done);
  else readStreamedBody(req, limit, done);
}

function readStreamedBody(req: IncomingMessage, limit: number, done: Done): void {
  const source = decodedBody(req);
  if (source === undefined) {
    done(readError(`unsupported content encoding "${req.headers['content-encoding'] ?? ''}"`, 415, 'encoding.unsupported'));
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  const settle = (error: Error | undefined, bytes?: Buffer) => {
    if (settled) return;
    settled = true;
    done(error, bytes);
  };
  source.on('data', (chunk: Buffer) => {
    if (settled) return; // refused already: the rest flows away unread
    received += chunk.length;
    if (received <= limit) {
      chunks.push(chunk);
      return;
    }
    settle(readError('request entity too large', 413, 'entity.too.large'));
    // Nor is the rest decoded: a compression bomb would keep inflating into nothing.
    if (source !== req) {
      req.unpipe();
      req.resume();
    }
  });
  source.on('end', () => settle(undefined, Buffer.concat(chunks, received)));
  // A decoder's fault is a body that does not decode; the request's own, a cut-off body.
  source.on('error', (error: NodeJS.ErrnoException) => settle(streamFault(error)));
  // A request that arrived whole closes before its decoder has ended: only a cut-off one fails.
  req.on('close', () => {
    if (!req.complete) settle(readError('request aborted', 400, 'request.aborted'));
  });
}
