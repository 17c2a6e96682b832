// Where each HTTP/1.1 answer ends in the bytes a keep-alive connection receives: after its head,
// a body framed by Content-Length or by chunked transfer coding, or none (a 204, a 304, a head
// that names neither). The load generator (load.ts) needs only that and each answer's status.

const headEnd = Buffer.from('\r\n\r\n');
const lineEnd = Buffer.from('\r\n');
const contentLength = /\r\ncontent-length:[ \t]*(\d+)/i;
const chunked = /\r\ntransfer-encoding:[^\r]*chunked/i;

/**
 * Feeds a connection's bytes in; calls `onAnswer` with the status of each answer completed.
 * Throws on bytes that are not HTTP/1.1 framing (the connection is then of no further use).
 */
export class AnswerFraming {
  #held: Buffer | undefined;

  constructor(private readonly onAnswer: (status: number) => void) {}

  push(chunk: Buffer): void {
    const bytes = this.#held === undefined ? chunk : Buffer.concat([this.#held, chunk]);
    let start = 0;
    for (let end = answerEnd(bytes, start); end >= 0; end = answerEnd(bytes, start)) {
      this.onAnswer(Number(bytes.toString('latin1', start + 9, start + 12)));
      start = end;
    }
    if (start === bytes.length) this.#held = undefined;
    // The caller may reuse the chunk's memory for its next read: keep a copy, unless `bytes`
    // already is one (a concatenation).
    else this.#held = bytes === chunk ? Buffer.from(bytes.subarray(start)) : bytes.subarray(start);
  }

  /** Whether part of an answer has arrived and its end has not. */
  get midAnswer(): boolean {
    return this.#held !== undefined;
  }
}

/** The offset just past the answer starting at `start`, or -1 while its end has not arrived. */
function answerEnd(bytes: Buffer, start: number): number {
  const head = bytes.indexOf(headEnd, start);
  if (head < 0) return -1;
  const bodyStart = head + headEnd.length;
  const headText = bytes.toString('latin1', start, head);
  if (chunked.test(headText)) return chunkedEnd(bytes, bodyStart);
  const length = contentLength.exec(headText);
  const end = bodyStart + (length === null ? 0 : Number(length[1]));
  return end <= bytes.length ? end : -1;
}

/** Past the last chunk (size 0) and the trailer section that closes a chunked body. */
function chunkedEnd(bytes: Buffer, from: number): number {
  let at = from;
  for (;;) {
    const sizeEnd = bytes.indexOf(lineEnd, at);
    if (sizeEnd < 0) return -1;
    // The size is hex, possibly followed by ';' and chunk extensions.
    const size = Number.parseInt(bytes.toString('latin1', at, sizeEnd), 16);
    if (Number.isNaN(size)) throw new Error(`not a chunk size: ${JSON.stringify(bytes.toString('latin1', at, sizeEnd))}`);
    if (size === 0) {
      // No trailers: the next two bytes end the body; else the trailers end with an empty line.
      if (bytes.length < sizeEnd + 4) return -1;
      if (bytes[sizeEnd + 2] === 13 && bytes[sizeEnd + 3] === 10) return sizeEnd + 4;
      const trailersEnd = bytes.indexOf(headEnd, sizeEnd);
      return trailersEnd < 0 ? -1 : trailersEnd + headEnd.length;
    }
    at = sizeEnd + lineEnd.length + size + lineEnd.length;
    if (at > bytes.length) return -1;
  }
}
