// The common body, read without body-parser: one that announces its length and no
// Content-Encoding. body-parser's general path (type checks, a content-encoding stream, raw-body's
// listeners and its length bookkeeping, dumping the rest on error) was a visible share of a small
// POST's CPU; everything else (chunked, compressed) still goes through it. The failures carry
// the `status` and `type` body-parser gives the same faults, so body.ts maps both alike.
import type { IncomingMessage } from 'node:http';

/**
 * True when the body can be read by readPlainBody: a Content-Length, no encoding to undo, and
 * not read already (a replay step before the body step reads it; body-parser then keeps its result).
 */
export function isPlainBody(req: IncomingMessage): boolean {
  const encoding = req.headers['content-encoding'];
  return !req.readableEnded && req.headers['content-length'] !== undefined && req.headers['transfer-encoding'] === undefined && (encoding === undefined || encoding.toLowerCase() === 'identity');
}

/** Called once a body is read: with its bytes, or a 4xx error. */
export type Done = (error: Error | undefined, bytes?: Buffer) => void;

/** A body's failure with the `status` and `type` body-parser gives it. */
export function readError(message: string, status: number, type: string): Error {
  return Object.assign(new Error(message), { status, type });
}

/** A fault of the body's stream: the client's (400), as body-parser reports it; a connection reset is a cut-off body. */
export function streamFault(error: NodeJS.ErrnoException): Error {
  return error.code === 'ECONNRESET' ? readError('request aborted', 400, 'request.aborted') : Object.assign(error, { status: 400 });
}

/** Reads a plain body (isPlainBody) whole; `done` is called once, with the bytes or a 4xx error. */
export function readPlainBody(req: IncomingMessage, limit: number, done: Done): void {
  const length = Number(req.headers['content-length']);
  if (length > limit) {
    done(readError('request entity too large', 413, 'entity.too.large'));
    return;
  }
  // The listeners stay: removing them (delete on the emitter's table) slowed node's own event
  // code for every later request. They are anonymous, the state a PlainRead: under tsx
  // (esbuild's keepNames) each named closure made per request also pays a defineProperty.
  const read = new PlainRead(length, done);
  req.on('data', (chunk: Buffer) => read.add(chunk));
  req.on('end', () => read.end());
  req.on('error', (error: NodeJS.ErrnoException) => read.fail(error));
  req.on('close', () => read.close());
}

class PlainRead {
  private readonly chunks: Buffer[] = [];
  private received = 0;
  private settled = false;

  constructor(
    private readonly length: number,
    private readonly done: Done,
  ) {}

  add(chunk: Buffer): void {
    this.received += chunk.length;
    this.chunks.push(chunk);
  }

  end(): void {
    if (this.received !== this.length) this.settle(readError('request size did not match content length', 400, 'request.size.invalid'));
    else this.settle(undefined, this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.received));
  }

  fail(error: NodeJS.ErrnoException): void {
    this.settle(streamFault(error));
  }

  /** Every request closes, after its end too: the error (its stack trace) is made only for a cut-off one. */
  close(): void {
    if (!this.settled) this.settle(readError('request aborted', 400, 'request.aborted'));
  }

  private settle(error: Error | undefined, bytes?: Buffer): void {
    if (this.settled) return;
    this.settled = true;
    this.done(error, bytes);
  }
}
