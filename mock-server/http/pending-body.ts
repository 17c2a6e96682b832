// Whether a request may still have body bytes on their way: it announced a body (a non-zero
// Content-Length, or Transfer-Encoding) and node has not seen all of it. An answer given now
// should close the connection: waiting for the rest would let a client hold it open with a
// body it never sends. (`req.complete` alone is false for every request while its handler runs
// synchronously, even one without a body, so it cannot decide this by itself.)
//
// A replica forwarding a request to the holder of its sandbox (mock-server/replica/) sends the
// whole body it announced: its connection stays open after an early answer (a 413), and the rest
// is read and dropped, so the replica is not cut off while it writes and gets the answer to pass on.
import type { IncomingMessage } from 'node:http';

const sentWhole = new WeakSet<IncomingMessage>();

/** Takes `req`'s sender at its word that the whole body it announced is coming. */
export function trustBodyToArrive(req: IncomingMessage): void {
  sentWhole.add(req);
}

export function bodyPending(req: IncomingMessage): boolean {
  if (req.complete || sentWhole.has(req)) return false;
  const length = req.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}
