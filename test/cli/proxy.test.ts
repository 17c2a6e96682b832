// The validating proxy over real HTTP in front of a running mock: conforming traffic through the
// generated clients passes, planted request violations (a bound, missing credentials, an unknown
// path, a wrong method) and a planted answer violation (a recorded answer edited off-contract
// and replayed by a second mock) are each reported as one line, and no token, signature, API
// key or secret reaches a log line, a report or a recorded fixture.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmacSigner, DepositV1Client, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import { startValidatingProxy, type ValidatingProxy } from '../../cli/proxy/validating-proxy.js';
import { readFixtures, type ExchangeFixture } from '../../mock-server/replay/fixture-format.js';
import { ReplayBook } from '../../mock-server/replay/replay-book.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';

let mock: RunningMockServer;
let proxy: ValidatingProxy;
const lines: string[] = [];
const recordDir = mkdtempSync(join(tmpdir(), 'proxy-record-'));

beforeAll(async () => {
  mock = await startMockServer({ seed: 7 });
  proxy = await startValidatingProxy({
    target: new URL(mock.url),
    port: 0,
    host: '127.0.0.1',
    maxBodyBytes: 1024 * 1024,
    passThrough: ['/__mock'],
    recordDir,
    log: (line) => lines.push(line),
  });
});

afterAll(async () => {
  await proxy.close();
  await mock.close();
});

const v3 = () => new ExchangeV3Client({ baseUrl: proxy.url, token: mock.token, retry: false });
const v1 = () =>
  new DepositV1Client({
    baseUrl: proxy.url,
    retry: false,
    signer: createHmacSigner(depositV1SignatureScheme, { key: mock.site.apiKey, secret: mock.site.apiSecret }, { now: () => mock.sandbox.clock.nowMs() }),
  });

/** Lines logged since `mark` about exchange number `sequence`. */
const linesOf = (sequence: number) => lines.filter((line) => line.includes(` #${sequence} `) || line.includes(` #${sequence}:`));
const lastSequence = () => proxy.report.exchanges.at(-1)!.sequence;

/** A proxy (small capture limit, nothing passed through) in front of a target of the test's own, listening on a free port. */
async function proxyInFrontOf(target: Server, recordDir?: string): Promise<{ proxy: ValidatingProxy; logged: string[] }> {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const logged: string[] = [];
  const proxy = await startValidatingProxy({
    target: new URL(`http://127.0.0.1:${(target.address() as AddressInfo).port}`),
    port: 0,
    host: '127.0.0.1',
    maxBodyBytes: 1024,
    passThrough: [],
    ...(recordDir !== undefined ? { recordDir } : {}),
    log: (line) => logged.push(line),
  });
  return { proxy, logged };
}

describe('validating proxy', () => {
  it('forwards conforming traffic of both families unchanged and reports no violation', async () => {
    const before = proxy.report.exchanges.length;
    const routes = await v3().listRoutes();
    expect(routes.status).toBe(200);
    expect(routes.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await v1().listAssets()).body.data.length).toBeGreaterThan(0);
    const judged = proxy.report.exchanges.slice(before);
    expect(judged.map((exchange) => [exchange.family, exchange.operationId, exchange.violations])).toEqual([
      ['v3', 'listRoutes', []],
      ['v1', 'listAssets', []],
    ]);
  });

  it('reports a request over a bound, one line per violation, naming the field', async () => {
    const answer = await fetch(`${proxy.url}/api/v3/private/orders?per_page=1000`, { headers: { authorization: `Bearer ${mock.token}` } });
    expect(answer.status).toBe(422); // what the mock answers is forwarded as it is
    const logged = linesOf(lastSequence());
    expect(logged).toHaveLength(1);
    // The field is named once: `query.per_page: must be …`, not `query.per_page: query.per_page: must be …`.
    expect(logged[0]).toMatch(/^violation #\d+ GET \/api\/v3\/private\/orders\?per_page=1000 → 422 \(listOrders\) request query\.per_page: must be <= \d+$/);
  });

  it('reports missing credentials, an unknown path and a method the path does not have', async () => {
    await fetch(`${proxy.url}/api/v3/private/ping`);
    expect(linesOf(lastSequence()).join('\n')).toMatch(/request security: no credentials for privatePing: it needs Authorization: Bearer/);
    await fetch(`${proxy.url}/api/v3/private/nothing-here`);
    expect(linesOf(lastSequence()).join('\n')).toMatch(/request unknown-path: GET \/api\/v3\/private\/nothing-here is no operation of exchange-v3 or deposit-v1/);
    await fetch(`${proxy.url}/api/v3/private/ping`, { method: 'DELETE', headers: { authorization: `Bearer ${mock.token}` } });
    expect(linesOf(lastSequence()).join('\n')).toMatch(/request method: DELETE \/api\/v3\/private\/ping is no operation of exchange-v3; the path has GET, HEAD/);
  });

  it('reports 502 for an unreachable target and keeps serving', async () => {
    const dead = await startValidatingProxy({ target: new URL('http://127.0.0.1:9'), port: 0, host: '127.0.0.1', maxBodyBytes: 1024, passThrough: [], log: (line) => lines.push(line) });
    try {
      const answer = await fetch(`${dead.url}/api/v3/ping`);
      expect(answer.status).toBe(502);
      expect(dead.report.failures).toHaveLength(1);
      expect(dead.report.summary()).toMatch(/0 exchanges .* 1 not answered by the target/);
    } finally {
      await dead.close();
    }
  });
});

describe('forwarding', () => {
  it('changes nothing but hop-by-hop headers and Host, both ways, and judges a compressed answer decoded', async () => {
    const seen: { rawHeaders: string[]; body: Buffer }[] = [];
    // Off-contract on purpose (ping's answer has no envelope), and compressed.
    const answerBytes = gzipSync(Buffer.from(JSON.stringify({ pong: true })));
    const target = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) });
        res.writeHead(200, ['Content-Type', 'application/json', 'Content-Encoding', 'gzip', 'X-Custom-Case', 'Kept', 'Connection', 'keep-alive, X-Hop', 'X-Hop', 'dropped']);
        res.end(answerBytes);
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const targetHost = `127.0.0.1:${(target.address() as AddressInfo).port}`;
    const logged: string[] = [];
    const forwarding = await startValidatingProxy({ target: new URL(`http://${targetHost}`), port: 0, host: '127.0.0.1', maxBodyBytes: 1024, passThrough: [], log: (line) => logged.push(line) });
    try {
      const sent = Buffer.from('{"any":"bytes",  "kept":true}');
      const answer = await new Promise<{ message: IncomingMessage; body: Buffer }>((resolve, reject) => {
        const request = httpRequest(`${forwarding.url}/api/v3/ping`, {
          method: 'GET',
          // As an array node sends the headers as they are, without adding Host.
          headers: ['Host', new URL(forwarding.url).host, 'X-Trace-ID', 'abc', 'Connection', 'keep-alive, X-Drop-Me', 'X-Drop-Me', '1', 'Content-Type', 'application/json', 'Content-Length', String(sent.length)],
        });
        request.on('response', (message) => {
          const chunks: Buffer[] = [];
          message.on('data', (chunk: Buffer) => chunks.push(chunk));
          message.on('end', () => resolve({ message, body: Buffer.concat(chunks) }));
        });
        request.on('error', reject);
        request.end(sent);
      });
      const pairs = (raw: string[]) => raw.flatMap((name, i) => (i % 2 === 0 ? [`${name}: ${raw[i + 1]}`] : []));
      // The proxy's own connection to the target says keep-alive: a hop-by-hop header of its own.
      expect(pairs(seen[0]!.rawHeaders)).toEqual(['Host: ' + targetHost, 'X-Trace-ID: abc', 'Content-Type: application/json', `Content-Length: ${sent.length}`, 'Connection: keep-alive']);
      expect(seen[0]!.body.equals(sent)).toBe(true);
      expect(answer.body.equals(answerBytes)).toBe(true);
      expect(answer.message.headers['content-encoding']).toBe('gzip');
      expect(pairs(answer.message.rawHeaders)).toContain('X-Custom-Case: Kept');
      expect(answer.message.headers['x-hop']).toBeUndefined();
      expect(logged.join('\n')).toMatch(/response schema: body does not match the contract/);
      expect(logged.join('\n')).not.toMatch(/not valid JSON/);
    } finally {
      await forwarding.close();
      target.close();
    }
  });

  it('reports an answer that is not what its Content-Encoding says as a violation, not as a body over the limit', async () => {
    const target = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end('{"state":0} is not gzip');
    });
    const dir = mkdtempSync(join(tmpdir(), 'proxy-encoding-'));
    const { proxy: forwarding, logged } = await proxyInFrontOf(target, dir);
    try {
      const answer = await fetch(`${forwarding.url}/api/v3/ping`);
      expect([answer.status, answer.headers.get('content-encoding')]).toEqual([200, 'gzip']); // forwarded as the target sent it
      await answer.body?.cancel();
      await expect.poll(() => logged.length).toBeGreaterThan(1);
      expect(logged).toContain('violation #1 GET /api/v3/ping → 200 (ping) response content-encoding: the body is not valid gzip (Content-Encoding gzip)');
      expect(logged).toContain('note #1: not recorded, the body is not valid gzip (Content-Encoding gzip)');
      expect(logged.join('\n')).not.toMatch(/capture limit/);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      await forwarding.close();
      target.close();
    }
  });
});

describe('stopping', () => {
  it('answers 503 to a request the target has not answered when the proxy stops, and reports it', async () => {
    let arrived!: () => void;
    const forwarded = new Promise<void>((resolve) => (arrived = resolve));
    const hanging = createServer(() => arrived()); // takes the request, never answers
    const { proxy: stopping, logged } = await proxyInFrontOf(hanging);
    try {
      const answer = fetch(`${stopping.url}/api/v3/ping`).then(async (response) => ({ status: response.status, text: await response.text() }));
      await forwarded;
      await stopping.close(0);
      // Without it the client's connection was cut (a network error) and the summary said every request was answered.
      expect(await answer).toEqual({ status: 503, text: 'exchange-api-kit proxy: the proxy stopped before the target answered\n' });
      expect(logged).toEqual(['error #1 GET /api/v3/ping: the proxy stopped before the target answered']);
      expect(stopping.report.summary()).toMatch(/0 exchanges in .*, 1 not answered by the target/);
    } finally {
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});

describe('the capture limit', () => {
  it('forwards a body over the limit whole, judges its parameters only, and does not record it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-cap-'));
    const logged: string[] = [];
    const capped = await startValidatingProxy({ target: new URL(mock.url), port: 0, host: '127.0.0.1', maxBodyBytes: 1024, passThrough: [], recordDir: dir, log: (line) => logged.push(line) });
    try {
      const name = 'x'.repeat(3000); // over the contract's bound too: the mock's 422 proves the body arrived whole
      const answer = await fetch(`${capped.url}/api/v3/private/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, url: 'http://127.0.0.1:9/hook', events: ['api.test'] }),
      });
      expect(answer.status).toBe(422);
      expect(JSON.stringify(await answer.json())).toContain('"details":{"name":');
      expect(logged).toEqual([
        expect.stringMatching(/^note #1 POST \/api\/v3\/private\/webhooks → 422 \(createWebhookEndpoint\): a body is larger than the capture limit/),
        'note #1: not recorded, a body is larger than the capture limit',
      ]);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      await capped.close();
    }
  });
});

describe('redaction', () => {
  it('never prints or writes a token, an API key, a signature or a webhook secret', async () => {
    const created = await v3().createWebhookEndpoint({ body: { name: 'redaction', url: 'http://127.0.0.1:9/hook', events: ['order.created'] } });
    const webhookSecret = created.body.result.endpoint.secret;
    await v1().listAssets();
    // A token in a query string and in a planted violation's path.
    await fetch(`${proxy.url}/api/v3/private/nothing?token=${mock.token}`, { headers: { authorization: `Bearer ${mock.token}` } });
    // Secrets only a query string carries, on an operation that is recorded.
    const querySecrets = ['qs_token_value_0123', 'qs-api-secret-4567', 'qs_signature_89ab'];
    // A query secret echoed elsewhere in its exchange (here the path, and the violation naming it).
    await fetch(`${proxy.url}/api/v3/private/nothing/qs_echoed_secret_cdef?hmac_secret=qs_echoed_secret_cdef`, { headers: { authorization: `Bearer ${mock.token}` } });
    querySecrets.push('qs_echoed_secret_cdef');
    const before = readdirSync(recordDir).length;
    await fetch(`${proxy.url}/api/v3/private/orders?token=${querySecrets[0]}&per_page=5&api_secret=${querySecrets[1]}&Signature=${querySecrets[2]}`, {
      headers: { authorization: `Bearer ${mock.token}` },
    });
    const recorded = readdirSync(recordDir).sort().slice(before);
    expect(recorded).toEqual([expect.stringMatching(/-get-listOrders\.json$/)]);
    const listed = JSON.parse(readFileSync(join(recordDir, recorded[0]!), 'utf8')) as ExchangeFixture;
    expect(listed.request.query).toBe('token=%5BREDACTED%5D&per_page=5&api_secret=%5BREDACTED%5D&Signature=%5BREDACTED%5D');
    // Replay compares secret parameters redacted, as they were recorded.
    expect(new ReplayBook(readFixtures(recordDir)).has('GET', '/api/v3/private/orders', 'per_page=5&Signature=s&api_secret=a&token=t')).toBe(true);

    const secrets = [mock.token, mock.site.apiKey, mock.site.apiSecret, webhookSecret, ...querySecrets];
    const written = [
      lines.join('\n'),
      proxy.report.json(),
      proxy.report.junit(),
      proxy.report.summary(),
      ...readdirSync(recordDir).map((file) => readFileSync(join(recordDir, file), 'utf8')),
    ].join('\n');
    for (const secret of secrets) expect(written).not.toContain(secret);
    // v1 signatures are per request: none of the recorded ones may be in clear.
    const signatures = readdirSync(recordDir)
      .map((file) => JSON.parse(readFileSync(join(recordDir, file), 'utf8')) as ExchangeFixture)
      .flatMap((fixture) => Object.entries(fixture.request.headers).filter(([name]) => /signature|authorization|api-key/i.test(name)).map(([, value]) => value));
    expect(signatures.length).toBeGreaterThan(0);
    expect(new Set(signatures)).toEqual(new Set(['[REDACTED]']));
    expect(lines.join('\n')).toContain('token=%5BREDACTED%5D');
  });
});

describe('recording, then replay', () => {
  it('replays recorded answers, reports an answer edited off-contract, and answers 404 for the unrecorded with --replay-only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-replay-'));
    const recording = await startValidatingProxy({ target: new URL(mock.url), port: 0, host: '127.0.0.1', maxBodyBytes: 1024 * 1024, passThrough: ['/__mock'], recordDir: dir, log: () => undefined });
    const client = new ExchangeV3Client({ baseUrl: recording.url, token: mock.token, retry: false });
    const pinged = await client.privatePing();
    const routes = await client.listRoutes({ query: { per_page: 2 } });
    await recording.close();

    const files = readdirSync(dir).sort();
    expect(files).toEqual([expect.stringMatching(/^000001-get-privatePing\.json$/), expect.stringMatching(/^000002-get-listRoutes\.json$/)]);
    // Plant a contract violation in the recorded answer of privatePing: drop a required field.
    const pingFile = join(dir, files[0]!);
    const fixture = JSON.parse(readFileSync(pingFile, 'utf8')) as ExchangeFixture;
    expect(fixture).toMatchObject({ format: 'exchange-api-kit.exchange', version: 1, operationId: 'privatePing', request: { method: 'GET', path: '/api/v3/private/ping', query: '' } });
    delete ((fixture.response.body as { json: unknown }).json as { result?: unknown }).result;
    writeFileSync(pingFile, JSON.stringify(fixture));

    const replaying = await startMockServer({ replay: { book: new ReplayBook(readFixtures(dir)), only: true } });
    const watching: string[] = [];
    const judge = await startValidatingProxy({ target: new URL(replaying.url), port: 0, host: '127.0.0.1', maxBodyBytes: 1024 * 1024, passThrough: [], log: (line) => watching.push(line) });
    try {
      // Headers never count: another token is answered from the recording.
      const replayed = await fetch(`${judge.url}/api/v3/private/ping`, { headers: { authorization: 'Bearer someone-else-entirely' } });
      expect(replayed.headers.get('x-mock-replayed-from')).toBe(files[0]);
      expect(watching.join('\n')).toMatch(/violation #1 GET \/api\/v3\/private\/ping → 200 \(privatePing\) response schema: body does not match the contract/);

      const again = await new ExchangeV3Client({ baseUrl: replaying.url, token: 'not-the-recorded-token-at-all', retry: false }).listRoutes({ query: { per_page: 2 } });
      expect(again.body).toEqual(routes.body);
      expect(again.requestId).toBe(routes.requestId);

      const missing = await fetch(`${replaying.url}/api/v3/private/orders`, { headers: { authorization: `Bearer ${mock.token}` } });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ state: 1, error: { code: 'not_found' } });
      const missingV1 = await fetch(`${replaying.url}/v1/public/assets`);
      expect(missingV1.status).toBe(404);
      expect(await missingV1.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
      expect(pinged.status).toBe(200);
    } finally {
      await judge.close();
      await replaying.close();
    }
  });
});
