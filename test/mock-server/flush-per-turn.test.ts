// The mock sends the answers it finishes in one turn of the event loop together, at the turn's
// end (mock-server/http/flush-per-turn.ts). Over real connections: every answer still reaches
// its own client whole and in order (many connections answered in one turn, pipelined requests,
// an answer streamed over several turns), and an answer finished just before the mock closes
// still leaves.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { flushPerTurn } from '../../mock-server/http/flush-per-turn.js';
import { startMockServer } from '../../mock-server/server.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  if (server?.listening) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = flushPerTurn(createServer(handler));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Writes `raw` on one connection and reads until the peer closes it or `done` says the text is complete. */
async function rawExchange(url: string, raw: string, done: (text: string) => boolean): Promise<string> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write(raw);
  let text = '';
  socket.setEncoding('utf8');
  for await (const chunk of socket) {
    text += chunk as string;
    if (done(text)) break;
  }
  socket.destroy();
  return text;
}

describe('answers sent once a turn', () => {
  it('delivers answers finished in one turn on many connections, each to its own client', async () => {
    const waiting: { req: IncomingMessage; res: ServerResponse }[] = [];
    const count = 24;
    const url = await listen((req, res) => {
      waiting.push({ req, res });
      if (waiting.length < count) return;
      // Every answer in one synchronous loop: one turn.
      for (const w of waiting) w.res.end(`answer to ${w.req.url}`);
    });
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => fetch(`${url}/${i}`).then((r) => r.text())));
    expect(answers).toEqual(Array.from({ length: count }, (_, i) => `answer to /${i}`));
  });

  it('answers pipelined requests on one connection in order, each whole', async () => {
    const url = await listen((req, res) => {
      const body = `answer to ${req.url}`;
      res.setHeader('Content-Length', Buffer.byteLength(body));
      res.end(body);
    });
    const paths = Array.from({ length: 10 }, (_, i) => `/p${i}`);
    const raw = paths.map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`).join('');
    const text = await rawExchange(url, raw, (t) => t.includes('answer to /p9'));
    expect([...text.matchAll(/answer to (\/p\d+)/g)].map((m) => m[1])).toEqual(paths);
    expect(text.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(10);
  });

  it('delivers an answer streamed over several turns whole and in order', async () => {
    const url = await listen((_req, res) => {
      let sent = 0;
      const next = (): void => {
        if (sent === 5) return void res.end('end');
        res.write(`part ${sent} `);
        sent += 1;
        setImmediate(next);
      };
      next();
    });
    expect(await (await fetch(url)).text()).toBe('part 0 part 1 part 2 part 3 part 4 end');
  });

  it("sends the mock's answer finished in the turn it is closed in before its connections end", async () => {
    const mock = await startMockServer({ port: 0, seed: 3 });
    const ping = exchangeV3Routes.find((r) => r.operationId === 'ping')!;
    // close() is called in the turn the ping's answer is finished in, before the turn's end.
    mock.use('ping', () => {
      setImmediate(() => void mock.close());
      return undefined;
    });
    const raw = `GET ${exchangeV3RoutesBasePath}${ping.path} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const text = await rawExchange(mock.url, raw, () => false);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(text).toContain('"result"');
  });
});
