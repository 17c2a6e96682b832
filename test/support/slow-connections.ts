// Slow senders as an attacker opens them, for the security suite and the bench: raw sockets that
// send part of a request and then wait, never finishing it. `headers` stops inside the header
// block; `body` sends complete headers announcing a body and only its first bytes. Each
// connection reports what the server answered before it closed the socket.
import { connect, type Socket } from 'node:net';

export type SlowKind = 'headers' | 'body';

export interface RawConnection {
  socket: Socket;
  /** Resolves when the socket closes, with everything the server sent. */
  closed: Promise<string>;
  isOpen(): boolean;
}

export interface SlowConnection extends RawConnection {
  kind: SlowKind;
}

/** `text` written to a fresh connection, which then stays as it is until the server acts. */
export function openRaw(baseUrl: string, text: string): Promise<RawConnection> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = '';
    let open = true;
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const closed = new Promise<string>((done) =>
      socket.once('close', () => {
        open = false;
        done(received);
      }),
    );
    socket.once('error', () => undefined); // a reset is a close like any other here
    socket.once('connect', () => {
      socket.write(text, () => resolve({ socket, closed, isOpen: () => open }));
    });
    socket.once('error', reject);
  });
}

export async function openSlowConnection(baseUrl: string, kind: SlowKind, paths: { get: string; post: string }): Promise<SlowConnection> {
  const host = new URL(baseUrl).host;
  const text =
    kind === 'headers'
      ? `GET ${paths.get} HTTP/1.1\r\nHost: ${host}\r\nX-Slow: `
      : `POST ${paths.post} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"seconds":`;
  return { ...(await openRaw(baseUrl, text)), kind };
}

/** `count` slow connections, half of each kind, all written before this resolves. */
export async function openSlowConnections(baseUrl: string, count: number, paths: { get: string; post: string }): Promise<SlowConnection[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => openSlowConnection(baseUrl, index % 2 === 0 ? 'headers' : 'body', paths)));
}

/** The status line's code of a raw answer, or undefined when nothing was answered. */
export function statusOf(answer: string): number | undefined {
  const match = /^HTTP\/1\.1 (\d{3}) /.exec(answer);
  return match === null ? undefined : Number(match[1]);
}
