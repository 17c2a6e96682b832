// Strict mode checks what is really sent: the generated router writes handler answers straight
// to res.end (not res.json), so the check sits there. A handler answer that breaks the contract
// becomes a loud 500; a right one passes unchanged.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeV3Routes } from '../../generated/exchange-v3/routes.js';
import { rememberRoute, requestContext } from '../../mock-server/http/request-context.js';
import { strictResponses } from '../../mock-server/http/strict-responses.js';
import { VirtualClock } from '../../mock-server/clock.js';
import type { Server } from 'node:http';

describe('strict mode', () => {
  let server: Server;
  let base = '';
  const ping = exchangeV3Routes.find((r) => r.operationId === 'ping')!;

  beforeAll(async () => {
    const app = express();
    const answer = (body: unknown): express.RequestHandler => (_req, res) => {
      const text = JSON.stringify(body);
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(text));
      res.end(text);
    };
    const meta = { request_id: 'req_0123456789abcdef0123', timestamp: '2026-11-21T12:00:00.000Z' };
    app.get('/right', requestContext('v3', new VirtualClock()), strictResponses(), rememberRoute(ping), answer({ state: 0, message: 'OK', result: null, meta }));
    app.get('/wrong', requestContext('v3', new VirtualClock()), strictResponses(), rememberRoute(ping), answer({ state: 0, result: { pong: 1 } }));
    server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers 500 naming the operation when a handler writes a body its contract does not allow', async () => {
    const response = await fetch(`${base}/wrong`);
    expect(response.status).toBe(500);
    const body = (await response.json()) as { message: string; error: { code: string } };
    expect(body.error.code).toBe('internal_error');
    expect(body.message).toMatch(/^strict mode: ping 200 body does not match the contract/);
  });

  it('passes a body that matches', async () => {
    const right = await fetch(`${base}/right`);
    const text = await right.text();
    expect(right.status, text).toBe(200);
  });
});
