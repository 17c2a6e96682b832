// The answers the mock finishes in one turn of the event loop leave together, at the turn's end.
//
// Node puts an answer on its socket as soon as res.end() is called. Under load the mock answers
// several connections per turn, and each write wakes a waiting client on its own; on a VM
// waking the other core is an expensive interrupt, and the socket writes were about a third of a
// quote POST's CPU in profiles. Holding each connection's uncork until the turn's check phase
// (setImmediate) sends the same writes, one system call per answer as before, back to back.
// In paired runs of fresh mocks the kernel's CPU a request fell by about a third on each of the
// benchmarked requests (the quote POST's 28 → 18 µs; docs/performance.md). Nothing else changes:
// res.end() has run and the response is finished as before; only its bytes wait, for
// microseconds when a turn answers one request.
import type { Server } from 'node:http';
import { Socket } from 'node:net';

const uncork = Socket.prototype.uncork;

/** Connections whose uncorks wait for the end of this turn, with how many each. */
let held = new Map<Socket, number>();

/** Sends what every held connection has waiting (at the end of a turn, or as a server closes). */
function releaseHeldAnswers(): void {
  const releasing = held;
  held = new Map();
  for (const [socket, count] of releasing) for (let i = 0; i < count; i += 1) uncork.call(socket);
}

function holdUncork(this: Socket): void {
  if (held.size === 0) setImmediate(releaseHeldAnswers);
  held.set(this, (held.get(this) ?? 0) + 1);
}

/**
 * Every connection `server` accepts from now on sends its writes once a turn. Closing it sends
 * what its connections hold first: close() ends idle connections, and an answer already ended
 * in this turn must not be lost with them.
 */
export function flushPerTurn<S extends Server>(server: S): S {
  server.on('connection', (socket: Socket) => {
    socket.uncork = holdUncork;
  });
  const close = server.close;
  server.close = function (this: S, ...args: Parameters<Server['close']>) {
    releaseHeldAnswers();
    return close.apply(this, args);
  };
  return server;
}
