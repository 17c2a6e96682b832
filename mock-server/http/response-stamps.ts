// What stamps each answer of the mock: a fresh request id (X-Request-Id and the body's request
// id) and the Date header's text. The express chain (request-context.ts) and the answers to
// requests node's parser refused (client-error.ts) both take them from here.
import { randomFillSync } from 'node:crypto';

// Request ids are 10 random bytes in hex, cut from a pool refilled every 409 requests: one
// call into the random source per request was a visible share of a small request's cost.
const idBytes = 10;
const idPool = Buffer.alloc(idBytes * 409);
let idOffset = idPool.length;

/** A new request id, `req_` and 20 hex digits. */
export function newRequestId(): string {
  if (idOffset === idPool.length) {
    randomFillSync(idPool);
    idOffset = 0;
  }
  const id = idPool.toString('hex', idOffset, idOffset + idBytes);
  idOffset += idBytes;
  return `req_${id}`;
}

// The Date header names whole seconds: its text is kept for the second it was last written in.
let dateSecond = Number.NaN;
let dateText = '';

/** The Date header's text for `nowMs`. */
export function httpDate(nowMs: number): string {
  const second = Math.floor(nowMs / 1000);
  if (second !== dateSecond) {
    dateText = new Date(second * 1000).toUTCString();
    dateSecond = second;
  }
  return dateText;
}
