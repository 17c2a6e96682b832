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
 * (gzip, deflate, br), within the same cap. An unknown encoding or a body that does not decode
 * counts as not kept.
 */
export function decodeBody(body: CapturedBody, contentEncoding: string | undefined, maxBytes: number): CapturedBody {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  if (!body.complete || encoding === '' || encoding === 'identity' || body.bytes.length === 0) return body;
  try {
    const options = { maxOutputLength: maxBytes };
    if (encoding === 'gzip' || encoding === 'x-gzip') return { bytes: gunzipSync(body.bytes, options), complete: true };
    if (encoding === 'deflate') return { bytes: inflateSync(body.bytes, options), complete: true };
    if (encoding === 'br') return { bytes: brotliDecompressSync(body.bytes, options), complete: true };
  } catch {
    // larger than the cap once decoded, or not what it claims to be
  }
  return { bytes: Buffer.alloc(0), complete: false };
}
