// On a durable store, what a request changed is committed before its answer's first byte leaves:
// an answer the client sees (a 2xx above all) is never lost by a crash after it. res.end() without
// writeHead() goes through writeHead() too (node's implicit header), and so does flushHeaders().
//
// The write is asynchronous (PostgreSQL), so writeHead() asks for it and the response goes on
// being written as usual (its status, headers and flags are what the handlers expect), but what
// node would put on the connection waits until the write has committed. Every byte of a response,
// head and body, goes through node's ServerResponse#_send: that is what is held, then sent in
// order. (Corking the socket is not enough: res.end() uncorks it fully.) A journal that cannot be
// written ends the connection unanswered rather than acknowledge what is not kept.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { reportStoreFailure } from '../store/report-store-failure.js';

/** node's one way of putting a response's bytes (its head with the first chunk, then the body) on its connection. */
type Send = (this: ServerResponse, ...args: unknown[]) => boolean;

export function journalBeforeAnswer(listener: RequestListener, flush: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>): RequestListener {
  return (req, res) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
      // A second call throws (the head is written once); it must not hold the first's bytes twice.
      if (this.headersSent) return writeHead.apply(this, args);
      const response = this as ServerResponse & { _send: Send };
      const send = response._send;
      const held: unknown[][] = [];
      response._send = (...chunk: unknown[]) => {
        held.push(chunk);
        return true;
      };
      flush(req, response).then(
        () => {
          response._send = send;
          // One packet for the head and body, as node sends them when nothing waits.
          response.socket?.cork();
          for (const chunk of held) send.apply(response, chunk);
          response.socket?.uncork();
        },
        (error: unknown) => {
          reportStoreFailure('what the answer tells of could not be stored; it is not sent', error);
          res.destroy();
        },
      );
      return writeHead.apply(this, args);
    } as ServerResponse['writeHead'];
    listener(req, res);
  };
}
