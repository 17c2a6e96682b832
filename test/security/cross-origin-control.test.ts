// A web page of another origin cannot drive or read an open control API (a mock without an admin
// token, as `npm start` runs on a laptop). Each request here is what a browser sends for such a
// page: a form post or no-cors fetch (no preflight: a form's media type, text/plain, or no
// Content-Type at all), an <img> or <script> GET, a page of another port of localhost, a
// sandboxed frame, and a DNS-rebinding page whose name now resolves to the mock. Each is refused
// with 403 `cross_origin_request` in the control envelope and leaves the sandbox as it was. The
// mock's own pages (same origin) and clients that are not browsers (no Origin) keep working.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxControlErrorCodes, sandboxControlSecuritySchemes, type SandboxControlErrorCode } from '../../generated/sandbox-control/contract-data.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { result?: Record<string, unknown>; error?: { code: string } | null };
}

/** One request with exactly these headers (fetch would not let a test set Host). */
function call(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text === '' ? {} : (JSON.parse(text) as Answer['body']) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const foreignPage = 'https://attacker.example';
const code = 'cross_origin_request' satisfies SandboxControlErrorCode;
const refused = { status: sandboxControlErrorCodes[code].status, code };

function expectRefused(answer: Answer): void {
  expect({ status: answer.status, code: answer.body.error?.code }).toEqual(refused);
  expect(answer.headers['access-control-allow-origin']).toBeUndefined();
}

describe('a mock without an admin token', () => {
  let mock: TestServer;
  let port: string;
  const frozen = async () => (await call(mock.url, 'GET', '/__mock/clock')).body.result?.frozen;
  const tokenWorks = async (token: string) => (await call(mock.url, 'GET', '/api/v3/private/ping', { authorization: `Bearer ${token}` })).status === 200;

  beforeAll(async () => {
    mock = await startTestServer({ seed: 5 });
    port = new URL(mock.url).port;
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('refuses a cross-site form post that would freeze the clock, and the clock keeps running', async () => {
    const answer = await call(mock.url, 'POST', '/__mock/clock/freeze', { origin: foreignPage, 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded' }, 'a=1');
    expectRefused(answer);
    expect(answer.body).toMatchObject({ state: 1, result: null });
    expect(await frozen()).toBe(false);
  });

  it('refuses a no-cors JSON body without a Content-Type that would mint a token, and no token is minted', async () => {
    const token = 'forged-by-a-page-0001';
    const answer = await call(mock.url, 'POST', '/__mock/tokens', { origin: foreignPage }, JSON.stringify({ token }));
    expectRefused(answer);
    expect(await tokenWorks(token)).toBe(false);
  });

  it('refuses a bodiless reset from a page of another port of localhost, and a minted token survives', async () => {
    const token = 'minted-before-reset-01';
    expect((await call(mock.url, 'POST', '/__mock/tokens', { 'content-type': 'application/json' }, JSON.stringify({ token }))).status).toBe(201);
    // fetch(url, { method: 'POST', mode: 'no-cors' }): no body, so no media type for the mock to refuse.
    const answer = await call(mock.url, 'POST', '/__mock/reset', { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-site' });
    expectRefused(answer);
    expect(await tokenWorks(token)).toBe(true);
  });

  it('refuses a cross-site read with no Origin (an <img> or <script>) and a sandboxed frame (Origin: null)', async () => {
    expectRefused(await call(mock.url, 'GET', '/__mock/state', { 'sec-fetch-site': 'cross-site' }));
    expectRefused(await call(mock.url, 'POST', '/__mock/clock/freeze', { origin: 'null' }));
    expect(await frozen()).toBe(false);
  });

  it('refuses a DNS-rebinding page, same-origin with itself but sent to a public name', async () => {
    const rebound = `rebind.attacker.example:${port}`;
    expectRefused(await call(mock.url, 'GET', '/__mock/state', { host: rebound }));
    expectRefused(await call(mock.url, 'POST', '/__mock/clock/freeze', { host: rebound, origin: `http://${rebound}` }));
    expect(await frozen()).toBe(false);
  });

  it('refuses a CORS preflight without granting anything', async () => {
    const answer = await call(mock.url, 'OPTIONS', '/__mock/reset', { origin: foreignPage, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
    expectRefused(answer);
    expect(answer.headers['access-control-allow-methods']).toBeUndefined();
  });

  it("obeys the mock's own pages (same origin) and clients that are not browsers (no Origin)", async () => {
    const own = { origin: mock.url, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' };
    expect((await call(mock.url, 'POST', '/__mock/clock/freeze', own, '{}')).status).toBe(200);
    expect(await frozen()).toBe(true);
    expect((await call(mock.url, 'POST', '/__mock/clock/resume', { 'content-type': 'application/json' }, '{}')).status).toBe(200);
    expect(await frozen()).toBe(false);
    // Typed in the address bar: no Origin, Sec-Fetch-Site none.
    expect((await call(mock.url, 'GET', '/__mock/clock', { 'sec-fetch-site': 'none' })).status).toBe(200);
  });

  it('answers the names a mock is reached by locally: loopback, localhost, a container service name', async () => {
    for (const host of [`localhost:${port}`, `app.localhost:${port}`, `mock:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      expect({ host, status: (await call(mock.url, 'GET', '/__mock/clock', { host, origin: `http://${host}` })).status }).toEqual({ host, status: 200 });
    }
  });
});

describe('a mock with an admin token', () => {
  const adminToken = 'admin-token-for-cors-01';
  let mock: TestServer;
  beforeAll(async () => {
    mock = await startTestServer({ seed: 5, adminToken });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('lets the token decide, whatever the origin: a page cannot know it or send it without a preflight', async () => {
    const foreign = { origin: foreignPage, host: `sandbox.example.com:${new URL(mock.url).port}` };
    expect((await call(mock.url, 'GET', '/__mock/clock', foreign)).status).toBe(401);
    expect((await call(mock.url, 'GET', '/__mock/clock', { ...foreign, [sandboxControlSecuritySchemes.adminToken.name]: adminToken })).status).toBe(200);
  });
});
