// On a durable store, what a request changed is on disk before its answer's head is written: an
// answer the client sees (a 2xx above all) is never lost by a crash after it. res.end() without
// writeHead() goes through writeHead() too (node's implicit header). A journal that cannot be
// written ends the connection unanswered rather than acknowledge what is not kept.
import type { RequestListener, ServerResponse } from 'node:http';

export function journalBeforeAnswer(listener: RequestListener, flush: () => void): RequestListener {
  return (req, res) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
      try {
        flush();
      } catch (error) {
        console.error('the sandbox journal could not be written; the answer is not sent', error);
        res.destroy();
        return res;
      }
      return writeHead.apply(this, args);
    } as ServerResponse['writeHead'];
    listener(req, res);
  };
}
