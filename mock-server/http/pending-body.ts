// Whether a request may still have body bytes on their way: it announced a body (a non-zero
// Content-Length, or Transfer-Encoding) and node has not seen all of it. An answer given now
// should close the connection: waiting for the rest would let a client hold it open with a
// body it never sends. (`req.complete` alone is false for every request while its handler runs
// synchronously, even one without a body, so it cannot decide this by itself.)
import type { IncomingMessage } from 'node:http';

export function bodyPending(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}
