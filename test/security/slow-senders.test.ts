// Slow and lying senders cannot hold the mock: a body announced over its family's limit gets
// 413 before authentication and the connection is closed (no waiting for 10 GB that never
// come), and a chunked or compressed one gets it as soon as it passes the limit; 300 connections
// stuck in their headers or body leave the API answering every request, and the header and
// request timeouts close them all (408 request_timeout). Timeouts are shortened for the test; how
// fast the API answers meanwhile is measured by `npm run bench -- --only slow-senders`.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlBodyLimits, v1BodyLimits, v3BodyLimits } from '../../mock-server/http/body-limits.js';
import { bearer } from '../mock-server/support/http.js';
import { fillPath, routeOf, validPath } from '../mock-server/support/paths.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { openRaw, openSlowConnections, statusOf } from '../support/slow-connections.js';
import type { FamilyName } from '../mock-server/support/contract.js';
import { wrongV1SignatureLines } from './support/v1-wrong-signature.js';

let mock: TestServer;

beforeAll(async () => {
  mock = await startTestServer({ seed: 95, headersTimeoutMs: 5000, requestTimeoutMs: 6000 });
  mock.sandbox.stopDispatching();
});

afterAll(async () => {
  await mock?.close();
});

describe('a Content-Length over the limit', () => {
  const targets: [FamilyName, string, boolean][] = [
    ['v3', 'sendTestWebhook', false],
    ['v3', 'sendTestWebhook', true],
    ['v3', 'commitUploadIntent', true],
    ['v1', 'createDeposit', false],
    ['control', 'advanceClock', false],
    ['control', 'receiveInboxWebhook', false],
  ];

  it.each(targets)('%s %s (token: %s) is answered 413 at once and the connection closed', async (family, operationId, withToken) => {
    const path = validPath(family, routeOf(family, operationId));
    const auth = withToken ? `Authorization: ${bearer(mock.token).Authorization}\r\n` : '';
    const connection = await openRaw(
      mock.url,
      `POST ${path} HTTP/1.1\r\nHost: mock\r\n${auth}Content-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n0123456789`,
    );
    const answer = await connection.closed;
    // Before authentication (no token is no 401) and without waiting for the announced body.
    expect(statusOf(answer)).toBe(413);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
  });
});

describe('a chunked body over the limit', () => {
  // v1 reads the body before it checks the signature, so a wrong one does not hide the 413.
  const targets: [FamilyName, string, number, boolean][] = [
    ['v3', 'sendTestWebhook', v3BodyLimits.bytes, false],
    ['v3', 'sendTestWebhook', v3BodyLimits.bytes, true],
    ['v1', 'createDeposit', v1BodyLimits.bytes, false],
    ['control', 'advanceClock', controlBodyLimits('advanceClock').bytes, false],
    ['control', 'receiveInboxWebhook', controlBodyLimits('receiveInboxWebhook').bytes, true],
  ];

  it.each(targets)('%s %s is answered 413 as it passes the limit (%s bytes; gzip: %s), not when the client stops sending', async (family, operationId, limit, gzip) => {
    const path = validPath(family, routeOf(family, operationId));
    const auth = family === 'v3' ? `Authorization: ${bearer(mock.token).Authorization}\r\n` : family === 'v1' ? wrongV1SignatureLines(mock) : '';
    // One byte over the limit once decoded; the terminating chunk never comes.
    const over = Buffer.alloc(limit + 1, 0x20);
    const sent = gzip ? gzipSync(over) : over;
    const connection = await openRaw(
      mock.url,
      `POST ${path} HTTP/1.1\r\nHost: mock\r\n${auth}Content-Type: application/json\r\n${gzip ? 'Content-Encoding: gzip\r\n' : ''}Transfer-Encoding: chunked\r\n\r\n`,
    );
    connection.socket.write(`${sent.length.toString(16)}\r\n`);
    connection.socket.write(sent);
    connection.socket.write('\r\n');
    // The request timeout (6 s here) would answer 408: the 413 must come first.
    const answer = await connection.closed;
    expect(statusOf(answer)).toBe(413);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
  });
});

describe('connections whose request has all arrived', () => {
  it('stay open after an error answer: only a pending body closes them', async () => {
    for (const [method, family, operationId] of [['POST', 'v3', 'confirmOrder'], ['DELETE', 'v3', 'deleteOrder'], ['POST', 'control', 'advanceClock']] as const) {
      const response = await fetch(mock.url + validPath(family, routeOf(family, operationId)), { method, headers: bearer('eak_no_such_token_00000000000000000000') });
      await response.text();
      expect([operationId, response.status >= 400, response.headers.get('connection')]).toEqual([operationId, true, 'keep-alive']);
    }
  });
});

describe('300 slow connections', () => {
  it('leave the API answering every request, and are all closed by the timeouts', async () => {
    const paths = { get: fillPath('v3', routeOf('v3', 'ping'), {}), post: fillPath('control', routeOf('control', 'advanceClock'), {}) };
    const slow = await openSlowConnections(mock.url, 300, paths);

    const statuses = await Promise.all(Array.from({ length: 200 }, () => mock.v3.privatePing().then((response) => response.status)));
    const heldMeanwhile = slow.filter((connection) => connection.isOpen()).length;
    expect(statuses.filter((status) => status === 200)).toHaveLength(200);
    expect(heldMeanwhile).toBe(300);

    const answers = await Promise.all(slow.map((connection) => connection.closed));
    expect(answers.map(statusOf)).toEqual(answers.map(() => 408));
  });
});
