// A small round-robin load balancer (node:http) in front of several mocks sharing one database,
// as an operator would put one: each request goes to the next backend, streamed both ways over
// kept-alive connections. A backend that refuses the connection never saw the request, so the
// next one is tried; any other failure (a backend dying mid-request) closes the caller's
// connection unanswered, which is what the caller of a real balancer sees too.
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { withoutHopByHop } from '../../../mock-server/http/hop-by-hop.js';

export interface RoundRobinFront {
  url: string;
  close(): Promise<void>;
}

export async function startRoundRobinFront(backends: readonly string[]): Promise<RoundRobinFront> {
  const agent = new Agent({ keepAlive: true });
  let next = 0;
  const server = createServer((req, res) => {
    const first = next++ % backends.length;
    const tryBackend = (tried: number): void => {
      if (tried === backends.length) return void res.destroy();
      const upstream = request(new URL(req.url ?? '/', backends[(first + tried) % backends.length]), { method: req.method, headers: withoutHopByHop(req.rawHeaders), agent });
      // The body is sent once the connection is up: until then a refusal leaves it unread, for the next backend.
      upstream.once('socket', (socket) => (socket.connecting ? socket.once('connect', () => req.pipe(upstream)) : req.pipe(upstream)));
      upstream.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' ? tryBackend(tried + 1) : res.destroy()));
      upstream.on('response', (answer) => relay(answer, res));
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
    };
    tryBackend(0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function relay(answer: IncomingMessage, res: ServerResponse): void {
  res.writeHead(answer.statusCode ?? 502, answer.statusMessage, withoutHopByHop(answer.rawHeaders));
  answer.pipe(res);
  answer.on('error', () => res.destroy());
}
