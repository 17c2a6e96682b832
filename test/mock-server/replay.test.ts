// `serve --replay DIR` over real HTTP with fixture files on disk: the matching rule (method, path,
// query in any order, JSON body regardless of key order; headers never), several recordings of
// one request answering in order and the last one sticking, the fall-back to the simulation
// with the request body intact, and bad fixture files (an answer that could not be sent among
// them) refused at start-up by name.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmacSigner, DepositV1Client, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { apiPathPrefixes } from '../../mock-server/app.js';
import { serveStartOptions } from '../../cli/serve.js';
import { fixtureFormat, fixtureVersion, readFixtures, type ExchangeFixture } from '../../mock-server/replay/fixture-format.js';
import { ReplayBook } from '../../mock-server/replay/replay-book.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';

function fixture(request: Partial<ExchangeFixture['request']>, status: number, json: unknown): ExchangeFixture {
  return {
    format: fixtureFormat,
    version: fixtureVersion,
    recordedAt: '2026-11-21T12:00:00.000Z',
    operationId: null,
    request: { method: 'GET', path: '/', query: '', headers: {}, body: null, ...request },
    response: { status, headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': `req_recorded_${status}` }, body: { json } },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'replay-'));
const files: [string, ExchangeFixture][] = [
  ['000001-get-ping.json', fixture({ path: '/api/v3/ping', query: 'b=2&a=1' }, 200, { state: 0, message: 'first', result: { pong: 1 } })],
  ['000002-get-ping.json', fixture({ path: '/api/v3/ping', query: 'a=1&b=2' }, 200, { state: 0, message: 'second', result: { pong: 2 } })],
  [
    '000003-post-deposit.json',
    fixture(
      { method: 'POST', path: '/v1/public/deposits', headers: { 'content-type': 'application/json' }, body: { json: { order_id: 'recorded-1', asset: 'USDT_TRC20' } } },
      201,
      { data: { uuid: 'recorded' } },
    ),
  ],
];
for (const [name, content] of files) writeFileSync(join(dir, name), JSON.stringify(content));

let mock: RunningMockServer;
beforeAll(async () => {
  mock = await startMockServer({ replay: { book: new ReplayBook(readFixtures(dir)), only: false } });
});
afterAll(() => mock.close());

describe('serve --replay', () => {
  it('matches the query in any order, answers in recording order, and keeps answering with the last', async () => {
    const messages: string[] = [];
    for (const query of ['a=1&b=2', 'b=2&a=1', 'a=1&b=2']) {
      const answer = await fetch(`${mock.url}/api/v3/ping?${query}`);
      messages.push(((await answer.json()) as { message: string }).message);
      expect(answer.headers.get('x-request-id')).toBe('req_recorded_200');
    }
    expect(messages).toEqual(['first', 'second', 'second']);
  });

  it('simulates what no recording matches (another query)', async () => {
    const answer = await fetch(`${mock.url}/api/v3/ping?a=1`);
    expect(answer.headers.get('x-mock-replayed-from')).toBeNull();
    expect(((await answer.json()) as { message: string }).message).not.toMatch(/first|second/);
  });

  it('matches an unsafe request by its JSON body, key order aside, and hands any other body to the simulation intact', async () => {
    const v1 = new DepositV1Client({
      baseUrl: mock.url,
      retry: false,
      signer: createHmacSigner(depositV1SignatureScheme, { key: mock.site.apiKey, secret: mock.site.apiSecret }, { now: () => mock.sandbox.clock.nowMs() }),
    });
    const recorded = await fetch(`${mock.url}/v1/public/deposits`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{ "asset": "USDT_TRC20",  "order_id": "recorded-1" }' });
    expect(recorded.status).toBe(201);
    expect(recorded.headers.get('x-mock-replayed-from')).toBe('000003-post-deposit.json');
    expect(await recorded.json()).toEqual({ data: { uuid: 'recorded' } });

    // Another body: the simulation gets it, signed, and creates a real deposit.
    const asset = (await v1.listAssets()).body.data.find((candidate) => candidate.depositEnabled)!;
    const created = await v1.createDeposit({ body: { order_id: 'simulated-1', asset: asset.code } });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-mock-replayed-from')).toBeNull();
    expect(created.body.data).toMatchObject({ orderId: 'simulated-1', asset: asset.code, status: 'waiting' });
  });

  it('is read by serve --replay at start-up', () => {
    const read = serveStartOptions(['--replay', dir, '--replay-only'], {});
    expect(read.help === false && read.start.replay).toMatchObject({ only: true, book: { size: files.length } });
  });

  it('counts the recordings of paths it never answers, which the start-up banner names', async () => {
    // Recorded through the proxy in front of more than the two APIs: the replay answers only under theirs.
    const other = [fixture({ path: '/other-api/ping' }, 200, { pong: true }), fixture({ path: '/api/v3x/ping' }, 200, { pong: true })];
    const book = new ReplayBook([...files.map(([, content]) => content), ...other].map((content, index) => ({ file: `${index}.json`, fixture: content })));
    expect(book.countOutside(Object.values(apiPathPrefixes))).toBe(other.length);
    expect(new ReplayBook(readFixtures(dir)).countOutside(Object.values(apiPathPrefixes))).toBe(0);
  });

  it('refuses a fixture of another version or a broken file, naming it', () => {
    const bad = mkdtempSync(join(tmpdir(), 'replay-bad-'));
    writeFileSync(join(bad, '000001-x.json'), JSON.stringify({ ...files[0]![1], version: 2 }));
    expect(() => serveStartOptions(['--replay', bad], {})).toThrow(/--replay: 000001-x\.json: version 2 is not supported \(this kit reads version 1\)/);
    writeFileSync(join(bad, '000001-x.json'), '{ nope');
    expect(() => serveStartOptions(['--replay', bad], {})).toThrow(/--replay: 000001-x\.json: not JSON/);
    expect(() => serveStartOptions(['--replay-only'], {})).toThrow(/--replay-only needs --replay <dir>/);
  });

  it('refuses at start-up, by name, a hand-edited fixture whose answer could not be sent', () => {
    const bad = mkdtempSync(join(tmpdir(), 'replay-unsendable-'));
    const [, recorded] = files[0]!;
    const withResponse = (response: Partial<ExchangeFixture['response']>) => JSON.stringify({ ...recorded, response: { ...recorded.response, ...response } });
    writeFileSync(join(bad, '000001-x.json'), withResponse({ headers: { 'x request id': 'req_1' } }));
    expect(() => serveStartOptions(['--replay', bad], {})).toThrow(/--replay: 000001-x\.json: response\.headers: "x request id" is not a valid header name/);
    writeFileSync(join(bad, '000001-x.json'), withResponse({ headers: { 'x-note': 'one\r\nSet-Cookie: two' } }));
    expect(() => serveStartOptions(['--replay', bad], {})).toThrow(/--replay: 000001-x\.json: response\.headers: the value of x-note has characters a header cannot carry/);
    writeFileSync(join(bad, '000001-x.json'), withResponse({ status: 101 }));
    expect(() => serveStartOptions(['--replay', bad], {})).toThrow(/--replay: 000001-x\.json: response needs an HTTP status from 200 to 599/);
    // A bodiless status with a body, and base64 that is not base64, are not what any server sent.
    writeFileSync(join(bad, '000001-x.json'), withResponse({ status: 204 }));
    expect(() => serveStartOptions(['--replay', bad], {})).toThrow(/--replay: 000001-x\.json: response: a 204 answer has no body/);
    writeFileSync(join(bad, '000001-x.json'), withResponse({ body: { base64: 'not base64!' } }));
    expect(() => serveStartOptions(['--replay', bad], {})).toThrow(/--replay: 000001-x\.json: response\.body must be null or one of/);
    writeFileSync(join(bad, '000001-x.json'), withResponse({ status: 204, body: null }));
    expect(() => serveStartOptions(['--replay', bad], {})).not.toThrow();
  });
});
