// Requests node's HTTP parser refuses before any listener sees them (an unknown method, two
// Content-Lengths, a control byte in a header, headers over 16 KB, a bad chunk size, a slow
// sender's timeout) and CONNECT, which node hands to a 'connect' listener or drops. Without these
// handlers node answers a bare `400`/`431`/`408` without a body, or closes the socket silently;
// with them the answer is the family's error body (families.ts), and the connection closes.
// The family is read from the request's target (the request in flight, or the request line the
// refused bytes start with): under the v1 prefix the v1 format, else the v3 envelope, which the
// control API shares (and which a timeout in the headers gets, as their bytes are gone). Codes:
// - a parse error, CONNECT: the family's bad-request code (400);
// - a request that did not arrive in time: its request-timeout code (408);
// - a request line and headers over node's 16 KB: its header-fields-too-large code (431);
// - chunk extensions over node's limit: its payload-too-large code (413), the body's framing
//   being what is too large.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { exchangeV3HeaderNames } from '../../generated/exchange-v3/contract-data.js';
import { errorBody } from '../../generated/runtime/server-envelope.js';
import type { Clock } from '../clock.js';
import { familyFormat, families, idsAt, statusOf } from './families.js';
import { underPrefix } from './front-door.js';
import type { FamilyName } from './locals.js';
import { httpDate, newRequestId } from './response-stamps.js';

/** What node passes a 'clientError' listener. */
type ClientError = Error & { code?: string; rawPacket?: Buffer };

/** The server's socket as node keeps it: the response of the request in flight, if any. */
type ServerSocket = Duplex & { _httpMessage?: ServerResponse | null };

export interface MalformedRequests {
  /** The server's 'clientError' listener. */
  clientError(error: ClientError, socket: Duplex): void;
  /** The server's 'connect' listener. */
  connect(req: IncomingMessage, socket: Duplex): void;
}

/** The listeners, answering on `clock`'s time; `v1Prefix` is where the v1 family lives. */
export function malformedRequests(clock: Clock, v1Prefix: string): MalformedRequests {
  const loweredV1 = v1Prefix.toLowerCase();
  const familyOf = (target: string | undefined): FamilyName => (target !== undefined && underPrefix(target, loweredV1) ? 'v1' : 'v3');
  return {
    clientError(error, socket) {
      try {
        const inFlight = (socket as ServerSocket)._httpMessage ?? undefined;
        if (gone.has(error.code ?? '') || !socket.writable || (inFlight?.headersSent === true && !inFlight.writableEnded)) {
          socket.destroy();
          return;
        }
        if (inFlight?.writableEnded === true) {
          // Its request was answered before the rest of the bytes failed to parse: send that answer, then close.
          socket.end(() => socket.destroy());
          return;
        }
        const family = familyOf(inFlight === undefined ? requestTarget(error.rawPacket) : originalUrl(inFlight.req));
        const [kind, message] = refusal(error.code);
        refuse(socket, clock, family, kind, message);
      } catch {
        socket.destroy();
      }
    },
    connect(req, socket) {
      try {
        refuse(socket, clock, familyOf(req.url), 'badRequest', 'CONNECT is not served: the mock is not a proxy.');
      } catch {
        socket.destroy();
      }
    },
  };
}

/** Errors of a connection the peer already dropped: nothing to answer. */
const gone: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE']);

type Kind = 'badRequest' | 'requestTimeout' | 'payloadTooLarge' | 'headersTooLarge';

function refusal(code: string | undefined): [Kind, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return ['headersTooLarge', 'The request line and headers exceed 16 KB.'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return ['payloadTooLarge', 'The chunk extensions exceed their size limit.'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return ['requestTimeout', 'The request did not arrive in time.'];
    default:
      return ['badRequest', 'The request cannot be parsed as HTTP/1.1.'];
  }
}

/** The request's target as sent (express and the front door strip a family's prefix off req.url). */
function originalUrl(req: IncomingMessage & { originalUrl?: string }): string | undefined {
  return req.originalUrl ?? req.url;
}

/** The target of the request line a packet starts with, if it starts with one. */
function requestTarget(packet: Buffer | undefined): string | undefined {
  if (packet === undefined) return undefined;
  return /^[!-~]+ ([!-~]+)/.exec(packet.toString('latin1', 0, Math.min(packet.length, 8192)))?.[1];
}

/** The family's error answer, then the connection closed once it is sent. */
function refuse(socket: Duplex, clock: Clock, family: FamilyName, kind: Kind, message: string): void {
  const code = families[family].codes[kind];
  const status = statusOf(family, code);
  const requestId = newRequestId();
  const body = JSON.stringify(errorBody(familyFormat(family), idsAt(clock, requestId), code, message));
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `${exchangeV3HeaderNames.XRequestId}: ${requestId}`,
    `Date: ${httpDate(clock.nowMs())}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}
