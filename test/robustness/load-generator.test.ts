// The benchmarks' load generator (test/bench/lib/load.ts) against real HTTP servers on ephemeral
// ports: it must count what the server answered, however the answers are framed and however
// the bytes are split, or every figure the benchmarks report is wrong. No timing is judged.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerFraming } from '../bench/lib/answer-framing.js';
import { load } from '../bench/lib/load.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/things?page=1`;
}

const answers = [
  'HTTP/1.1 200 OK\r\nContent-Length: 11\r\ncontent-type: application/json\r\n\r\n{"ok":true}',
  'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\n{"a"\r\n3\r\n:1}\r\n0\r\n\r\n',
  'HTTP/1.1 204 No Content\r\nDate: now\r\n\r\n',
  'HTTP/1.1 503 Service Unavailable\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\nx-trailer: 1\r\n\r\n',
  'HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n',
];
const statuses = [200, 201, 204, 503, 400];

describe('answer framing', () => {
  it('finds every answer and its status wherever the bytes are split, both reads in one reused buffer', () => {
    const bytes = Buffer.from(answers.join(''));
    const readBuffer = Buffer.alloc(bytes.length); // as load() reads every socket into one buffer
    for (let split = 0; split <= bytes.length; split += 1) {
      const seen: number[] = [];
      const framing = new AnswerFraming((status) => seen.push(status));
      framing.push(readBuffer.subarray(0, bytes.copy(readBuffer, 0, 0, split)));
      framing.push(readBuffer.subarray(0, bytes.copy(readBuffer, 0, split)));
      expect(seen, `split at ${split}`).toEqual(statuses);
      expect(framing.midAnswer).toBe(false);
    }
  });

  it('finds them fed a byte at a time, and knows when an answer is half-way', () => {
    const bytes = Buffer.from(answers.join(''));
    const seen: number[] = [];
    const framing = new AnswerFraming((status) => seen.push(status));
    for (let at = 0; at < bytes.length - 1; at += 1) framing.push(bytes.subarray(at, at + 1));
    expect(seen).toEqual(statuses.slice(0, -1));
    expect(framing.midAnswer).toBe(true);
    framing.push(bytes.subarray(bytes.length - 1));
    expect(seen).toEqual(statuses);
  });

  it('refuses a chunked body whose size is not hex', () => {
    const framing = new AnswerFraming(() => undefined);
    expect(() => framing.push(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'))).toThrow(/chunk size/);
  });
});

describe('load', () => {
  it('counts each answer the server sent, chunked or sized, and the ones that were not 2xx', async () => {
    let handled = 0;
    const url = await serve((_req, res) => {
      handled += 1;
      // Every third answer is a 503; the others alternate a chunked and a sized body.
      res.statusCode = handled % 3 === 0 ? 503 : 200;
      if (handled % 2 === 0) {
        res.write('{"part":1,');
        res.end('"part":2}');
      } else {
        res.setHeader('content-length', 2);
        res.end('{}');
      }
    });
    const figures = await load({ url, method: 'GET' }, 4, 1);
    const answered = Math.round(figures.requestsPerSecond * 1);
    expect(answered).toBeGreaterThan(20);
    // The requests still in flight when the run ended were handled and not counted: at most one a connection.
    expect(handled - answered).toBeGreaterThanOrEqual(0);
    expect(handled - answered).toBeLessThanOrEqual(4);
    expect(figures.non2xx).toBeGreaterThanOrEqual(Math.floor(answered / 3) - 2);
    expect(figures.non2xx).toBeLessThanOrEqual(Math.ceil(answered / 3) + 2);
    expect(figures.errors).toBe(0);
    expect(figures.p99Ms).toBeGreaterThanOrEqual(figures.p50Ms);
    expect(figures.clientCpuUs).toBeGreaterThan(0);
  });

  it('sends the method, path, headers and body, and what `each` makes anew for every request', async () => {
    const seen: { line: string; header: string | undefined; body: string }[] = [];
    const url = await serve((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        seen.push({ line: `${req.method} ${req.url}`, header: req.headers['x-each'] as string | undefined, body });
        res.setHeader('content-length', 0);
        res.end();
      });
    });
    let made = 0;
    const figures = await load(
      { url, method: 'POST', headers: { 'content-type': 'application/json' }, each: () => ((made += 1), { headers: { 'x-each': `n${made}` }, body: `{"n":${made},"é":"ü"}` }) },
      3,
      1,
    );
    expect(figures.errors).toBe(0);
    expect(seen.length).toBeGreaterThan(10);
    for (const request of seen) {
      expect(request.line).toBe('POST /things?page=1');
      expect(request.body).toBe(`{"n":${request.header!.slice(1)},"é":"ü"}`); // content-length counts bytes, not characters
    }
    expect(new Set(seen.map((request) => request.header)).size).toBe(seen.length);
  });

  it('counts a connection the server closes as an error and goes on with a new one', async () => {
    let handled = 0;
    const url = await serve((_req, res) => {
      handled += 1;
      if (handled % 5 === 0) res.setHeader('connection', 'close');
      res.setHeader('content-length', 2);
      res.end('{}');
    });
    const figures = await load({ url, method: 'GET' }, 2, 1);
    expect(figures.errors).toBeGreaterThan(0);
    expect(figures.requestsPerSecond).toBeGreaterThan(figures.errors * 3);
    expect(figures.non2xx).toBe(0);
  });

  it('reports no figures, only errors, when nothing listens', async () => {
    const url = await serve(() => undefined);
    const closed = servers.pop()!;
    await new Promise((resolve) => closed.close(resolve));
    const figures = await load({ url, method: 'GET' }, 2, 0.2);
    expect(figures.requestsPerSecond).toBe(0);
    expect(figures.p99Ms).toBeNaN();
    expect(figures.errors).toBeGreaterThan(0);
  });
});
