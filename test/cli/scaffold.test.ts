// `exchange-api-kit scaffold --out DIR` as an implementer uses it: the starter compiles under
// strict tsc, starts, and every operation answers the contract's 501, which the conformance
// runner reports as not implemented; implementing ping and a list makes their checks pass; a
// second scaffold keeps the implementer's files; the starter's in-memory idempotency store and
// meter replay a repeated request, refuse a reused key and an exhausted rate window.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { runConformance } from '../../conformance/index.js';
import { depositV1Routes } from '../../generated/deposit-v1/routes.js';
import { exchangeV3ErrorCodes } from '../../generated/exchange-v3/contract-data.js';
import { exchangeV3LimitHeaders, exchangeV3RouterErrors, exchangeV3Routes } from '../../generated/exchange-v3/routes.js';
import { startMockServer } from '../../mock-server/server.js';
import { repoRoot } from '../support/contracts.js';

const project = mkdtempSync(join(tmpdir(), 'exchange-api-kit-scaffold-'));
const io = { env: {}, stdout: () => undefined, stderr: () => undefined };
let server: ChildProcess | undefined;
/** The caller the starter's security.ts knows, from its environment; conformance uses the same. */
const credentials = { token: 'scaffold_token_0123456789', v1: { key: 'site-key', secret: 'site-secret' } };

/** Starts the scaffolded server on a free port with tsx, as `npm start` does; resolves with its URL. */
async function start(env: Record<string, string> = {}): Promise<string> {
  server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: project, env: { ...process.env, PORT: '0', API_TOKEN: credentials.token, SITE_KEY: credentials.v1.key, SITE_SECRET: credentials.v1.secret, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  for await (const chunk of server.stdout!) {
    output += String(chunk);
    const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
    if (url !== undefined) return url;
  }
  throw new Error(`the scaffolded server did not start: ${output}`);
}

async function stop(): Promise<void> {
  if (server === undefined || server.exitCode !== null || server.signalCode !== null) return;
  server.kill();
  await once(server, 'exit');
}

/** Status, media type, error code and Allow of an answer, to hold the starter's answers to the mock's. */
async function answerOf(url: string, init: RequestInit): Promise<{ status: number; json: boolean; code: unknown; allow: string | null }> {
  const response = await fetch(url, init);
  const text = await response.text();
  const json = /^application\/json/.test(response.headers.get('content-type') ?? '');
  return { status: response.status, json, code: json ? (JSON.parse(text) as { error?: { code?: unknown } }).error?.code : text.slice(0, 80), allow: response.headers.get('allow') };
}

/** A read-only run with the starter's credentials; skips for what empty lists cannot provide. */
const conformance = (baseUrl: string) => runConformance({ baseUrl, ...credentials, allowSkips: true });

beforeAll(async () => {
  expect(await main(['scaffold', '--out', project], io)).toBe(0);
  symlinkSync(join(repoRoot, 'node_modules'), join(project, 'node_modules'));
});
afterAll(async () => {
  await stop();
  rmSync(project, { recursive: true, force: true });
});

/** `tsc -p` over the project (its tsconfig: strict, no emit): the exit code and what it printed. */
function typecheck(): { status: number | null; output: string } {
  const tsc = spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { encoding: 'utf8' });
  return { status: tsc.status, output: tsc.stdout + tsc.stderr };
}

describe('exchange-api-kit scaffold', () => {
  it('writes a project that compiles under strict tsc (no skipLibCheck)', { timeout: 180_000 }, () => {
    expect(typecheck()).toEqual({ status: 0, output: '' });
    expect(JSON.parse(readFileSync(join(project, 'tsconfig.json'), 'utf8'))).toMatchObject({
      compilerOptions: { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, skipLibCheck: false },
    });
  });

  it('starts, and every operation conformance reaches answers the contract\'s 501', { timeout: 120_000 }, async () => {
    const baseUrl = await start();
    const report = await conformance(baseUrl);
    // The contract's security holds before any handler: no token, no answer.
    const anonymous = await fetch(`${baseUrl}/api/v3/private/ping`);
    await stop();
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('authentication_required');
    const statusRows = report.results.filter((result) => result.check === 'response:status');
    // Every read operation that needs no value from a list (the others cannot run: the lists are empty).
    const reachable = [...exchangeV3Routes, ...depositV1Routes].filter((route) => route.method === 'get' && !route.path.includes('{'));
    expect(reachable.length).toBeGreaterThan(20);
    for (const route of reachable) {
      const row = statusRows.find((result) => result.operation === route.operationId);
      expect(row, route.operationId).toMatchObject({ outcome: 'fail', reason: expect.stringMatching(/^not implemented: HTTP 501 (not_implemented|NOT_IMPLEMENTED)$/) });
    }
    // The 501 answers themselves are well-formed envelopes of the catalog: no other aspect fails.
    expect(statusRows.filter((result) => result.outcome === 'fail' && !result.reason.startsWith('not implemented'))).toEqual([]);
    expect(report.results.filter((result) => result.check.startsWith('response:') && result.check !== 'response:status' && result.outcome === 'fail')).toEqual([]);
  });

  it('answers a body it cannot take, an unknown path and a wrong method in the contract\'s envelope', { timeout: 120_000 }, async () => {
    const baseUrl = await start();
    const send = async (method: string, path: string, contentType?: string, body?: string | Uint8Array) => {
      const headers: Record<string, string> = { authorization: `Bearer ${credentials.token}`, ...(contentType === undefined ? {} : { 'content-type': contentType }) };
      const response = await fetch(`${baseUrl}/api/v3${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await response.text();
      return { status: response.status, type: response.headers.get('content-type'), allow: response.headers.get('allow'), requestId: response.headers.get('x-request-id'), text };
    };
    const quotes = '/private/exchange/quotes';
    const tooLarge = JSON.stringify({ route_id: 1, padding: 'x'.repeat(exchangeV3RouterErrors.bodyLimitBytes!) });
    const answers = {
      bad_request: await send('POST', quotes, 'application/json', '{"route_id":1,'),
      unsupported_media_type: await send('POST', quotes, 'text/plain', '{"route_id":1}'),
      payload_too_large: await send('POST', quotes, 'application/json', tooLarge),
      not_found: await send('GET', '/private/nope'),
      method_not_allowed: await send('PUT', '/private/ping'),
    };
    // Bytes, so fetch adds no Content-Type: such a body is read as JSON, as the mock reads it.
    const untyped = await send('POST', quotes, undefined, new TextEncoder().encode('{"route_id":1,'));
    const depth = exchangeV3RouterErrors.jsonDepthLimit!;
    const nested = (levels: number) => `{"route_id":1,"amount":"1","extra":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    const tooDeep = await send('POST', quotes, 'application/json', nested(depth + 1));
    const deepEnough = await send('POST', quotes, 'application/json', nested(depth));
    await stop();
    for (const [code, answer] of Object.entries(answers)) {
      expect({ code, status: answer.status, type: answer.type }).toEqual({ code, status: exchangeV3ErrorCodes[code as keyof typeof exchangeV3ErrorCodes].status, type: expect.stringMatching(/^application\/json/) });
      const body = JSON.parse(answer.text) as { state: number; result: unknown; error: { code: string }; meta: { request_id: string } };
      expect(body).toMatchObject({ state: 1, result: null, error: { code }, meta: { request_id: answer.requestId } });
    }
    expect(answers.method_not_allowed.allow).toBe('GET');
    expect({ status: untyped.status, body: JSON.parse(untyped.text) }).toMatchObject({ status: answers.bad_request.status, body: { error: { code: 'bad_request' } } });
    // Deeper than the contract's info.x-json-depth-limit is the 400; at the limit the body is read (and validated).
    expect({ status: tooDeep.status, body: JSON.parse(tooDeep.text) }).toMatchObject({ status: 400, body: { error: { code: 'bad_request' }, message: expect.stringContaining(`more than ${depth} levels`) } });
    expect(JSON.parse(deepEnough.text)).toMatchObject({ error: { code: 'validation_error' } });
  });

  it('echoes a correlation id its header schema takes, and answers null for one it refuses, as the mock does', { timeout: 120_000 }, async () => {
    const baseUrl = await start();
    const { name, maxLength } = exchangeV3RouterErrors.correlation!;
    const correlationOf = async (correlation: string, method: string, path: string, body?: string) => {
      const headers = { authorization: `Bearer ${credentials.token}`, [name]: correlation, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
      const response = await fetch(`${baseUrl}/api/v3${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
      return { status: response.status, correlation: ((await response.json()) as { meta: { correlation_id: unknown } }).meta.correlation_id };
    };
    const overLong = 'c'.repeat(maxLength! + 1);
    // The router's own answers (a refused id is a 422; a taken one reaches the 501) and the transport's (400, 404, 405).
    const requests: [string, string, string?][] = [
      ['GET', '/private/ping'],
      ['POST', '/private/exchange/quotes', '{'],
      ['GET', '/private/nope'],
      ['PUT', '/private/ping'],
    ];
    const answers = [];
    for (const [method, path, body] of requests) {
      answers.push({ path, refused: await correlationOf(overLong, method, path, body), empty: await correlationOf('', method, path, body), taken: await correlationOf('checkout-7f3a', method, path, body) });
    }
    await stop();
    expect(answers.map(({ refused, taken }) => [refused.status, taken.status])).toEqual([[422, 501], [400, 400], [404, 404], [405, 405]]);
    for (const { path, refused, empty, taken } of answers) {
      expect({ path, refused: refused.correlation, empty: empty.correlation, taken: taken.correlation }).toEqual({ path, refused: null, empty: null, taken: 'checkout-7f3a' });
    }
  });

  it('answers a path parameter that is not valid percent-encoding as the mock does', { timeout: 120_000 }, async () => {
    const mock = await startMockServer({ port: 0 });
    const baseUrl = await start();
    const requests: [string, string][] = [
      ['GET', '/api/v3/private/orders/%E0%A4%A'],
      ['POST', '/api/v3/private/exchange/orders/%ZZ/cancel'],
      ['DELETE', '/api/v3/private/orders/%E0%A4%A'],
      ['GET', '/v1/public/deposits/%E0%A4%A'],
    ];
    const answers = [];
    for (const [method, path] of requests) {
      answers.push({
        request: `${method} ${path}`,
        mock: await answerOf(`${mock.url}${path}`, { method, headers: { authorization: `Bearer ${mock.token}` } }),
        scaffold: await answerOf(`${baseUrl}${path}`, { method, headers: { authorization: `Bearer ${credentials.token}` } }),
      });
    }
    await stop();
    await mock.close();
    for (const { request, mock: expected, scaffold } of answers) {
      expect({ request, ...scaffold }).toEqual({ request, ...expected, json: true });
      expect(scaffold.status, request).toBeLessThan(500);
    }
  });

  it('reads a JSON operation\'s body sent as any JSON media type, and refuses another type, as the mock does', { timeout: 120_000 }, async () => {
    const mock = await startMockServer({ port: 0 });
    const baseUrl = await start();
    const types = ['application/json; charset=utf-8', 'application/vnd.api+json', 'application/merge-patch+json', 'Application/JSON', 'text/plain'];
    const answers = [];
    for (const type of types) {
      const init = (token: string): RequestInit => ({ method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body: '{"route_id":1}' });
      answers.push({
        type,
        mock: await answerOf(`${mock.url}/api/v3/private/exchange/quotes`, init(mock.token)),
        scaffold: await answerOf(`${baseUrl}/api/v3/private/exchange/quotes`, init(credentials.token)),
      });
    }
    await stop();
    await mock.close();
    for (const { type, mock: expected, scaffold } of answers) expect({ type, ...scaffold }).toEqual({ type, ...expected });
    // Read, then validated: the JSON types reach the operation's 422; only the other type is refused.
    expect(answers.map(({ scaffold }) => scaffold.code)).toEqual(['validation_error', 'validation_error', 'validation_error', 'validation_error', 'unsupported_media_type']);
  });

  it('implementing ping and a list makes their checks pass; a second scaffold keeps that code', { timeout: 120_000 }, async () => {
    const platform = join(project, 'src', 'handlers', 'exchange-v3', 'platform.ts');
    const orders = join(project, 'src', 'handlers', 'exchange-v3', 'orders.ts');
    writeFileSync(platform, readFileSync(platform, 'utf8')
      .replace('import { exchangeV3NotImplemented,', 'import { exchangeV3NotImplemented, exchangeV3Success,')
      .replace('ping: (_request, context) => exchangeV3NotImplemented(context)', "ping: (_request, context) => exchangeV3Success('ping', context, 200, null)"));
    writeFileSync(orders, readFileSync(orders, 'utf8')
      .replace('import { exchangeV3NotImplemented,', 'import { exchangeV3NotImplemented, exchangeV3Success,')
      .replace(
        'listPublicOrderStatuses: (_request, context) => exchangeV3NotImplemented(context)',
        "listPublicOrderStatuses: (_request, context) => exchangeV3Success('listPublicOrderStatuses', context, 200, { statuses: [] })",
      ));
    const implemented = readFileSync(platform, 'utf8');
    expect(await main(['scaffold', '--out', project], io)).toBe(0);
    expect(readFileSync(platform, 'utf8')).toBe(implemented);
    expect(typecheck()).toMatchObject({ status: 0 });

    const report = await conformance(await start());
    await stop();
    for (const operation of ['ping', 'listPublicOrderStatuses']) {
      const rows = report.results.filter((result) => result.operation === operation && result.check.startsWith('response:'));
      expect(rows.length, operation).toBe(5);
      expect(rows.filter((row) => row.outcome !== 'pass'), operation).toEqual([]);
    }
    expect(report.results.find((result) => result.operation === 'privatePing' && result.check === 'response:status')?.reason).toMatch(/^not implemented/);
  });

  it('answers a handler that throws, or whose promise rejects, with the catalog\'s 500 in the envelope', { timeout: 120_000 }, async () => {
    const reviews = join(project, 'src', 'handlers', 'exchange-v3', 'reviews.ts');
    const scaffolded = readFileSync(reviews, 'utf8');
    writeFileSync(reviews, scaffolded
      .replace('listReviews: (_request, context) => exchangeV3NotImplemented(context)', "listReviews: () => { throw new Error('the review store is down'); }")
      .replace('createReview: (_request, context) => exchangeV3NotImplemented(context)', "createReview: async () => { throw new Error('the review store is down'); }"));
    try {
      const baseUrl = await start();
      const headers = { authorization: `Bearer ${credentials.token}`, 'content-type': 'application/json', 'idempotency-key': 'scaffold-review-0002' };
      const listed = await answerOf(`${baseUrl}/api/v3/private/reviews`, { headers });
      const created = await answerOf(`${baseUrl}/api/v3/private/reviews`, { method: 'POST', headers, body: JSON.stringify({ order: 'W9D3F7H1J5', rating: 5, text: 'A quick and friendly exchange.', author_name: 'Ada' }) });
      await stop();
      for (const answer of [listed, created]) expect(answer).toEqual({ status: 500, json: true, code: 'internal_error', allow: null });
    } finally {
      writeFileSync(reviews, scaffolded);
    }
  });

  it('refuses, under tsc, a handler whose body is not the contract\'s', { timeout: 180_000 }, () => {
    const reviews = join(project, 'src', 'handlers', 'exchange-v3', 'reviews.ts');
    const scaffolded = readFileSync(reviews, 'utf8');
    writeFileSync(reviews, scaffolded.replace(
      'listReviews: (_request, context) => exchangeV3NotImplemented(context)',
      "listReviews: () => ({ status: 200, body: { state: 0, message: 'OK', result: 'no reviews' } })",
    ));
    try {
      const { status, output } = typecheck();
      expect(status).toBe(2);
      expect(output).toMatch(/src\/handlers\/exchange-v3\/reviews\.ts\(\d+,\d+\): error TS2322/);
    } finally {
      writeFileSync(reviews, scaffolded);
    }
  });

  it('replays a repeated review, refuses its key reused and the request past the minute\'s limit, with the limit headers', { timeout: 120_000 }, async () => {
    const reviews = join(project, 'src', 'handlers', 'exchange-v3', 'reviews.ts');
    const scaffolded = readFileSync(reviews, 'utf8');
    writeFileSync(reviews, scaffolded
      .replace('import { exchangeV3NotImplemented,', 'import { exchangeV3NotImplemented, exchangeV3Success,')
      .replace(
        'createReview: (_request, context) => exchangeV3NotImplemented(context)',
        "createReview: ({ body }, context) => exchangeV3Success('createReview', context, 201, { review: { id: 1, order_public_id: body.order, rating: body.rating, text: body.text, author_name: body.author_name, status: 'pending_moderation', created_at: new Date().toISOString() } })",
      ));
    try {
      const baseUrl = await start({ RATE_LIMIT_PER_MINUTE: '3' });
      const post = async (text: string) => {
        const response = await fetch(`${baseUrl}/api/v3/private/reviews`, {
          method: 'POST',
          headers: { authorization: `Bearer ${credentials.token}`, 'content-type': 'application/json', 'idempotency-key': 'scaffold-review-0001' },
          body: JSON.stringify({ order: 'W9D3F7H1J5', rating: 5, text, author_name: 'Ada' }),
        });
        return { status: response.status, headers: response.headers, body: (await response.json()) as { error?: { code: string } } };
      };
      const first = await post('A quick and friendly exchange.');
      // A later created_at, were the handler run again: the repeat must be the first answer.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const repeated = await post('A quick and friendly exchange.');
      const reused = await post('Another text under the same key.');
      const refused = await post('A quick and friendly exchange.');
      await stop();
      expect([first.status, repeated.status, reused.status, refused.status]).toEqual([201, 201, 409, 429]);
      expect(repeated.body).toEqual(first.body);
      expect(repeated.headers.get('idempotent-replayed')).toBe('true');
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(reused.body.error?.code).toBe('idempotency_conflict');
      expect(refused.body.error?.code).toBe('rate_limit_exceeded');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      for (const answer of [first, repeated, reused, refused]) {
        for (const { header } of exchangeV3LimitHeaders) expect(answer.headers.get(header), header).toMatch(/^\d+$/);
      }
      expect([first, repeated, reused, refused].map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    } finally {
      writeFileSync(reviews, scaffolded);
    }
  });
});
