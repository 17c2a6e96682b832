// A node:http server on port 0 for one test file or describe block: it records every request
// (method, url, headers, raw body) and answers with whatever `handler` returns for it.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export interface Seen {
  method: string;
  /** Path and query exactly as received. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw body bytes, as signed. */
  raw: Buffer;
  /** The same as UTF-8 text. */
  body: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** A string is sent as is (HTML, text); anything else as JSON. */
  body?: unknown;
}

export type Handler = (seen: Seen) => Reply;

export interface RecordingServer {
  baseUrl: string;
  seen: Seen[];
  handler: Handler;
}

export function useRecordingServer(initial: Handler = () => ({ status: 500 })): RecordingServer {
  const state: RecordingServer = { baseUrl: '', seen: [], handler: initial };
  let server: Server;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const seen: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw, body: raw.toString('utf8') };
        state.seen.push(seen);
        let reply: Reply;
        try {
          reply = state.handler(seen);
        } catch (error) {
          // A failed server-side expectation must fail the test, not hang it: answer 599 with the reason.
          reply = { status: 599, body: { message: String(error), error: { code: 'test_server_failure', message: String(error) } } };
        }
        const text = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
        const type = typeof reply.body === 'string' ? 'text/html' : 'application/json';
        res.writeHead(reply.status, { 'content-type': type, ...reply.headers });
        res.end(text);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    state.seen = [];
  });
  return state;
}
