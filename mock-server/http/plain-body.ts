// The common body, read without body-parser: one that announces its length and no
// Content-Encoding. body-parser's general path (type checks, a content-encoding stream, raw-body's
// listeners and its length bookkeeping, dumping the rest on error) was a visible share of a small
// POST's CPU; everything else (chunked, compressed) still goes through it. The failures carry
// the `status` and `type` body-parser gives the same faults, so body.ts maps both alike.
import type { IncomingMessage } from 'node:http';

/** True when the body can be read by readPlainBody: a Content-Length and no encoding to undo. */
export function isPlainBody(req: IncomingMessage): boolean {
  const encoding = req.headers['content-encoding'];
  return req.headers['content-length'] !== undefined && req.headers['transfer-encoding'] === undefined && (encoding === undefined || encoding.toLowerCase() === 'identity');
}

type Done = (error: Error | undefined, bytes?: Buffer) => void;

function readError(message: string, status: number, type: string | undefined): Error {
  return Object.assign(new Error(message), { status, ...(type === undefined ? {} : { type }) });
}

/** Reads a plain body (isPlainBody) whole; `done` is called once, with the bytes or a 4xx error. */
export function readPlainBody(req: IncomingMessage, limit: number, done: Done): void {
  const length = Number(req.headers['content-length']);
  if (length > limit) {
    done(readError('request entity too large', 413, 'entity.too.large'));
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  // The listeners stay: removing them (delete on the emitter's table) slowed node's own event
  // code for every later request; a late 'close' finds the read settled.
  const settle = (error: Error | undefined, bytes?: Buffer) => {
    if (settled) return;
    settled = true;
    done(error, bytes);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    chunks.push(chunk);
  };
  const onEnd = () => {
    if (received !== length) settle(readError('request size did not match content length', 400, 'request.size.invalid'));
    else settle(undefined, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
  };
  // A stream fault is the client's (400), as body-parser reports it; a connection reset or a
  // close before the end is a cut-off body.
  const onError = (error: NodeJS.ErrnoException) =>
    settle(error.code === 'ECONNRESET' ? readError('request aborted', 400, 'request.aborted') : Object.assign(error, { status: 400 }));
  // Every request closes, after its end too: the error (its stack trace) is made only for a cut-off one.
  const onClose = () => {
    if (!settled) settle(readError('request aborted', 400, 'request.aborted'));
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('close', onClose);
}
