// Sends raw HTTP/1.1 requests to a server in ONE write on one connection (pipelining), so the
// server parses them back to back, and reads every answer's status line in order.
import { connect } from 'node:net';

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export async function pipelined(baseUrl: string, requests: readonly RawRequest[]): Promise<number[]> {
  const { hostname, port } = new URL(baseUrl);
  const wire = requests
    .map(({ method, path, headers, body }, i) => {
      // The last request closes the connection once every answer is written.
      const closing = i === requests.length - 1 ? { connection: 'close' } : {};
      const all = { host: `${hostname}:${port}`, ...headers, ...closing, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) };
      const lines = Object.entries(all).map(([name, value]) => `${name}: ${value}`);
      return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
    })
    .join('');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(wire));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve([...text.matchAll(/HTTP\/1\.1 (\d{3}) [A-Za-z ]*\r\n/g)].map((m) => Number(m[1]))));
  });
}
