// A deliberately broken server for the conformance tests: an HTTP proxy in front of a real mock
// that changes one thing (a request on its way in, or a response on its way out), so the mock's
// own code stays correct and each variant breaks exactly what its test names.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** Path and query, as received. */
  target: string;
  body: string;
}

export interface ProxiedResponse {
  status: number;
  headers: Headers;
  body: string;
}

export interface Mutation {
  /** Rewrites the request's path and query before it reaches the mock. */
  target?: (request: ProxiedRequest) => string;
  /** Rewrites the request body before it reaches the mock. */
  request?: (request: ProxiedRequest) => string;
  /** Rewrites the mock's answer before it reaches the runner. */
  response?: (request: ProxiedRequest, response: ProxiedResponse) => ProxiedResponse;
}

export interface RunningProxy {
  url: string;
  close(): Promise<void>;
}

// Headers fetch handles itself (framing, decoding) and must not be copied verbatim.
const hopHeaders = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'content-encoding', 'keep-alive']);

export async function startMutatingProxy(targetUrl: string, mutation: Mutation): Promise<RunningProxy> {
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      void (async () => {
        const request: ProxiedRequest = { method: incoming.method ?? 'GET', target: incoming.url ?? '/', body: Buffer.concat(chunks).toString('utf8') };
        const headers = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (!hopHeaders.has(name) && value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        const body = mutation.request?.(request) ?? request.body;
        const answer = await fetch(`${targetUrl}${mutation.target?.(request) ?? request.target}`, { method: request.method, headers, body: body === '' ? null : body });
        let response: ProxiedResponse = { status: answer.status, headers: answer.headers, body: await answer.text() };
        response = mutation.response?.(request, response) ?? response;
        const outHeaders: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          if (!hopHeaders.has(name)) outHeaders[name] = value;
        });
        outgoing.writeHead(response.status, outHeaders).end(response.body);
      })().catch((error: unknown) => outgoing.writeHead(502).end(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A JSON answer with one change made by `edit` (other answers untouched). */
export function editJson(response: ProxiedResponse, edit: (body: Record<string, any>) => void): ProxiedResponse {
  const body = JSON.parse(response.body) as Record<string, any>;
  edit(body);
  return { ...response, body: JSON.stringify(body) };
}
