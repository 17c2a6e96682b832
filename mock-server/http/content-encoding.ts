// A request body's bytes as the client meant them: decoded from its Content-Encoding (gzip,
// deflate, br or identity, as express's body parsers accept). Undefined for any other
// encoding (the caller answers 415); a body that fails to decode errors on the returned stream.
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

const decoders: Record<string, (() => NodeJS.ReadWriteStream) | null> = {
  identity: null,
  gzip: createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

export function decodedBody(req: IncomingMessage): Readable | undefined {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (!Object.hasOwn(decoders, encoding)) return undefined;
  const decoder = decoders[encoding];
  if (decoder === null || decoder === undefined) return req;
  return req.pipe(decoder()) as unknown as Readable;
}
