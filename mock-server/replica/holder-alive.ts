// Whether the holder working on a forwarded request is alive. A holder wedged by a stop (kill
// -STOP) or a stuck event loop still has its connections accepted and the request taken by its
// kernel, and never answers: nothing else ends the wait. A late answer is no sign of that: some
// answers begin late by design (an operation under an injected latency fault waits up to 60 s,
// POST /__mock/webhooks/run-due waits for every due delivery's attempt, 15 s each with as many
// rounds as there are deliveries, a streamed upload is read at its caller's pace). So while the
// head is late the holder is asked, on a connection of its own, a request without its secret,
// which its peer listener answers 421 at once whatever it is busy with
// (mock-server/http/peer-listener.ts): a holder that has answered neither for `quietMs` is wedged.
import { request, type ClientRequest } from 'node:http';

/** Asked every quarter of the quiet time, one question at a time: a busy event loop answers late, not never. */
const asksPerQuietTime = 4;

/** Calls `wedged` once the holder at `url` has answered nothing for `quietMs`; the function returned stops the watch. */
export function watchHolder(url: string, quietMs: number, wedged: () => void): () => void {
  const askEveryMs = quietMs / asksPerQuietTime;
  let aliveAt = Date.now();
  let asking: ClientRequest | undefined;
  let timer: NodeJS.Timeout;
  const stop = (): void => {
    clearTimeout(timer);
    asking?.destroy();
  };
  const ask = (): void => {
    const asked = request(url, { method: 'HEAD', agent: false }, (answer) => {
      answer.resume();
      aliveAt = Date.now();
      asking = undefined;
    });
    // Refused or reset: no sign of life (the forwarded request sees the same and ends the watch).
    asked.on('error', () => {
      if (asking === asked) asking = undefined;
    });
    asked.end();
    asking = asked;
  };
  const check = (): void => {
    const quiet = Date.now() - aliveAt;
    if (quiet >= quietMs) {
      stop();
      return wedged();
    }
    if (asking === undefined) ask();
    timer = setTimeout(check, Math.min(askEveryMs, quietMs - quiet));
  };
  timer = setTimeout(check, askEveryMs);
  return stop;
}
