// A store write a request makes outside the journal that its answer still depends on: the
// idempotency record that replays the answer to a retry. On a durable store the answer waits for
// it as it waits for its journal write (journal-before-answer.ts, app.ts), so an answer the client
// saw is replayed after a crash rather than run again. Kept per response, read as its head is written.
import type { ServerResponse } from 'node:http';

const writes = new WeakMap<ServerResponse, Promise<unknown>>();

/** Makes `res`'s answer wait for `write`, registered before its head is written (res.end does). */
export function storeBeforeAnswer(res: ServerResponse, write: Promise<unknown>): void {
  const earlier = writes.get(res);
  writes.set(res, earlier === undefined ? write : Promise.all([earlier, write]));
}

/** What `res`'s answer waits for besides the journal, if anything. */
export function storedBeforeAnswer(res: ServerResponse): Promise<unknown> | undefined {
  return writes.get(res);
}
