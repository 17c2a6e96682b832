// Child process of the throughput benchmark: a baseline server answering the same requests as
// the mock with the same JSON, without any of its work. `node:http` is the floor of any Node
// server; `express` is a plain express 5 app with one route per request and express.json().
// Usage: baseline.ts <node-http|express> <responses.json>, where the file maps
// "METHOD /path" → { status, body }. Prints one JSON line: { url }.
import express from 'express';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';

interface Canned {
  status: number;
  body: unknown;
}

const [kind, file] = process.argv.slice(2);
const responses = JSON.parse(readFileSync(file!, 'utf8')) as Record<string, Canned>;

function nodeHttp(): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      // The same work a JSON API cannot skip: parse the body, serialise the answer.
      if (chunks.length > 0) JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const canned = responses[`${req.method} ${(req.url ?? '').split('?')[0]}`];
      const text = JSON.stringify(canned?.body ?? { error: 'not found' });
      res.writeHead(canned?.status ?? 404, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
}

function plainExpress(): Server {
  const app = express();
  app.use(express.json());
  for (const [key, canned] of Object.entries(responses)) {
    const [method, path] = key.split(' ') as [string, string];
    app[method.toLowerCase() as 'get' | 'post'](path, (_req, res) => {
      res.status(canned.status).json(canned.body);
    });
  }
  return createServer(app);
}

const server = kind === 'express' ? plainExpress() : nodeHttp();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}` }));
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
