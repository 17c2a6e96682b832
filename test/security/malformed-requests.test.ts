// Requests node's HTTP parser refuses before the mock's listener sees them, and CONNECT, get the
// family's error body with a catalog code and its status, then the connection closes: never
// node's bare 400/431/408, never a socket closed without an answer. The family comes from the
// request's target (a v1 path: the v1 format; anything else: the v3 envelope, which the
// control API shares).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { families as formats } from '../../mock-server/http/families.js';
import { errorCodeOf, expectFamilyResponse, type FamilyName } from '../mock-server/support/contract.js';
import { fillPath, routeOf } from '../mock-server/support/paths.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { rawAnswer } from '../support/raw-answer.js';
import { openRaw } from '../support/slow-connections.js';
import { wrongV1SignatureLines } from './support/v1-wrong-signature.js';

let mock: TestServer;

beforeAll(async () => {
  mock = await startTestServer({ seed: 96, headersTimeoutMs: 300, requestTimeoutMs: 600 });
  mock.sandbox.stopDispatching();
});

afterAll(async () => {
  await mock?.close();
});

const paths: Record<FamilyName, string> = {
  v3: fillPath('v3', routeOf('v3', 'ping'), {}),
  v1: fillPath('v1', routeOf('v1', 'listAssets'), {}),
  control: fillPath('control', routeOf('control', 'advanceClock'), {}),
};

/** What `text` sent on a fresh connection gets, checked as the family's error with `code`, and the connection closed. */
async function expectRefused(text: string, family: FamilyName, code: string): Promise<void> {
  const connection = await openRaw(mock.url, text);
  const raw = await connection.closed;
  const answer = rawAnswer(raw);
  expectFamilyResponse(family, answer, JSON.stringify(text.slice(0, 80)));
  expect(errorCodeOf(answer.json)).toBe(code);
  expect(answer.headers.get('connection')).toBe('close');
}

/** The server still answers a well-formed request. */
async function expectStillAnswering(): Promise<void> {
  expect((await mock.v3Public.ping()).status).toBe(200);
}

const head = (family: FamilyName, method = 'GET') => `${method} ${paths[family]} HTTP/1.1\r\nHost: mock\r\n`;

// Operations that read their body before they answer (v1 checks the signature after the body).
const posts: Record<FamilyName, string> = {
  v3: fillPath('v3', routeOf('v3', 'sendTestWebhook'), {}),
  v1: fillPath('v1', routeOf('v1', 'createAmlCheck'), {}),
  control: paths.control,
};

function credentials(family: FamilyName): string {
  if (family === 'v3') return `Authorization: Bearer ${mock.token}\r\n`;
  return family === 'v1' ? wrongV1SignatureLines(mock) : '';
}

const post = (family: FamilyName) => `POST ${posts[family]} HTTP/1.1\r\nHost: mock\r\n${credentials(family)}Content-Type: application/json\r\n`;

describe('requests node cannot parse', () => {
  const cases: [string, (family: FamilyName) => string][] = [
    ['an unknown method', (family) => `FOO ${paths[family]} HTTP/1.1\r\nHost: mock\r\n\r\n`],
    ['two different Content-Lengths', (family) => `${post(family)}Content-Length: 1\r\nContent-Length: 2\r\n\r\n{}`],
    ['Content-Length with Transfer-Encoding', (family) => `${post(family)}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`],
    ['a NUL byte in a header', (family) => `${head(family)}X-Note: a\0b\r\n\r\n`],
    ['a control byte in a header', (family) => `${head(family)}X-Note: a\x01b\r\n\r\n`],
    ['an obs-fold', (family) => `${head(family)}X-Note: a\r\n b\r\n\r\n`],
    ['LF-only line endings', (family) => `GET ${paths[family]} HTTP/1.1\nHost: mock\n\n`],
    ['Content-Length -1', (family) => `${post(family)}Content-Length: -1\r\n\r\n`],
    ['a Content-Length beyond 64 bits', (family) => `${post(family)}Content-Length: 99999999999999999999999\r\n\r\n`],
    ['an invalid chunk size after complete headers', (family) => `${post(family)}Transfer-Encoding: chunked\r\n\r\nZZ\r\n`],
  ];
  const targets: FamilyName[] = ['v3', 'v1', 'control'];

  it.each(cases.flatMap(([what, text]) => targets.map((family) => [what, family, text] as const)))('%s (%s) gets 400 and the bad-request code', async (_what, family, text) => {
    await expectRefused(text(family), family, formats[family].codes.badRequest);
    await expectStillAnswering();
  });
});

describe('requests over node\'s limits or too slow', () => {
  it.each(['v3', 'v1'] as const)('headers over 16 KB (%s) get the header-fields-too-large code', async (family) => {
    await expectRefused(`${head(family)}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`, family, formats[family].codes.headersTooLarge);
    await expectStillAnswering();
  });

  it.each(['v3', 'v1'] as const)('a URL over 16 KB (%s) gets the header-fields-too-large code', async (family) => {
    await expectRefused(`GET ${paths[family]}?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: mock\r\n\r\n`, family, formats[family].codes.headersTooLarge);
    await expectStillAnswering();
  });

  it('headers that stop arriving get the v3 request-timeout code once the headers timeout passes (their target is not known)', async () => {
    await expectRefused(`${head('v3')}X-Slow: `, 'v3', formats.v3.codes.requestTimeout);
    await expectStillAnswering();
  });

  it.each(['v3', 'v1', 'control'] as const)('a body that stops arriving (%s) gets the request-timeout code once the request timeout passes', async (family) => {
    await expectRefused(`${post(family)}Content-Length: 100\r\n\r\n{"a":`, family, formats[family].codes.requestTimeout);
    await expectStillAnswering();
  });
});

describe('a request answered before its bytes fail to parse', () => {
  it('keeps its answer (405 for POST to ping), then the connection closes', async () => {
    const connection = await openRaw(mock.url, `${head('v3', 'POST')}Transfer-Encoding: chunked\r\n\r\nZZ\r\n`);
    const answer = rawAnswer(await connection.closed);
    expectFamilyResponse('v3', answer, 'POST ping with a bad chunk');
    expect(errorCodeOf(answer.json)).toBe(formats.v3.codes.methodNotAllowed);
    await expectStillAnswering();
  });
});

describe('CONNECT', () => {
  it('is answered as a request the mock cannot serve, in the v3 envelope for an authority target', async () => {
    await expectRefused('CONNECT host:22 HTTP/1.1\r\nHost: host:22\r\n\r\n', 'v3', formats.v3.codes.badRequest);
    await expectStillAnswering();
  });
});
