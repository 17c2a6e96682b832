// Keeps a copy of a body that streams through the proxy, up to a cap: the bytes are forwarded as
// they come whatever the size, and judged (or recorded) only when the whole body was kept.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { CapturedBody } from './contract-check.js';

export class BodyCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private overflowed = false;

  constructor(private readonly maxBytes: number) {}

  add(chunk: Buffer): void {
    if (this.overflowed) return;
    if (this.kept + chunk.length > this.maxBytes) {
      this.overflowed = true;
      this.chunks.length = 0;
      return;
    }
    this.chunks.push(chunk);
    this.kept += chunk.length;
  }

  result(): CapturedBody {
    return this.overflowed ? { bytes: Buffer.alloc(0), complete: false } : { bytes: Buffer.concat(this.chunks), complete: true };
  }
}

/**
 * The body as its media type has it, undoing a Content-Encoding the proxy forwarded untouched
 * (gzip, deflate, br), within the same cap. A body that does not decode is not kept and says so
 * (`encodingError`: the target's answer is broken), as does an encoding the proxy cannot undo.
 */
export function decodeBody(body: CapturedBody, contentEncoding: string | undefined, maxBytes: number): CapturedBody {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  if (!body.complete || encoding === '' || encoding === 'identity' || body.bytes.length === 0) return body;
  const decode = decoders[encoding];
  if (decode === undefined) return { bytes: Buffer.alloc(0), complete: false, unread: `the answer's Content-Encoding ${encoding} is not one the proxy decodes` };
  try {
    return { bytes: decode(body.bytes, { maxOutputLength: maxBytes }), complete: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return { bytes: Buffer.alloc(0), complete: false, unread: 'a body is larger than the capture limit once decoded' };
    return { bytes: Buffer.alloc(0), complete: false, encodingError: `the body is not valid ${encoding} (Content-Encoding ${encoding})` };
  }
}

const decoders: Readonly<Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer>> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};
