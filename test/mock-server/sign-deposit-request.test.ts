// signDepositRequest over real HTTP (strict mode): the v1 hmac headers the control API makes are
// accepted by the mock's v1 API as the default site, as a site named by its key, or with typed
// credentials; they carry the virtual clock's time, so they work on an advanced clock; a wrong
// secret signs a request the v1 API refuses; bad credentials give 422.
import { describe, expect, it } from 'vitest';
import { depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import type { SignDepositRequestRequest } from '../../generated/sandbox-control/types.js';
import { expectContractBody } from './support/contract.js';
import { failure } from './support/failure.js';
import { send } from './support/http.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
useFrozenSandbox({ seed: 2209 }, (started) => {
  server = started;
});

async function sign(body: SignDepositRequestRequest) {
  const response = await server.control.signDepositRequest({ body });
  expectContractBody('control', 'signDepositRequest', response.status, response.body);
  return response.body.result;
}

/** Sends a v1 request with the given headers; its status and error code. */
async function sendSigned(method: string, path: string, headers: Record<string, string>, body?: string) {
  const response = await send(server.url, path, { method, headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) }, ...(body === undefined ? {} : { body }) });
  return { status: response.status, code: (response.json as { error?: { code?: string } } | undefined)?.error?.code };
}

describe('signDepositRequest', () => {
  it("signs as the default site with the scheme's headers, which the v1 API accepts", async () => {
    const signed = await sign({ method: 'GET', path: '/v1/public/deposits?per_page=5' });
    expect(Object.keys(signed.headers).sort()).toEqual(Object.values(depositV1SignatureScheme.headers).sort());
    expect(signed.headers[depositV1SignatureScheme.headers.key ?? '']).toBe(server.site.apiKey);
    expect(signed.site_id).toBe(server.sandbox.defaultSite.id);
    expect(await sendSigned('GET', '/v1/public/deposits?per_page=5', signed.headers)).toEqual({ status: 200, code: undefined });
    // The signature covers the query: another one is refused.
    expect(await sendSigned('GET', '/v1/public/deposits?per_page=6', signed.headers)).toEqual({ status: 401, code: 'INVALID_SIGNATURE' });
  });

  it('signs a body exactly as given, on the virtual clock', async () => {
    await server.control.advanceClock({ body: { duration: 'P2D' } });
    const body = JSON.stringify({ order_id: 'SIGNED-1', asset: 'USDT_TRON', amount: '4.00' });
    const signed = await sign({ method: 'POST', path: '/v1/public/deposits', body });
    expect(signed.headers[depositV1SignatureScheme.headers.timestamp]).toBe(String(Math.floor(server.sandbox.clock.nowMs() / 1000)));
    expect(await sendSigned('POST', '/v1/public/deposits', signed.headers, body)).toEqual({ status: 201, code: undefined });
    expect(await sendSigned('POST', '/v1/public/deposits', signed.headers, body.replace('4.00', '5.00'))).toMatchObject({ status: 401 });
  });

  it('signs a path that starts with two slashes as a path, not as another host', async () => {
    // new URL('//vza|?J', base) reads `vza|` as a host and throws: that was a 500.
    const signed = await sign({ method: 'GET', path: '//vza|?J' });
    expect(Object.keys(signed.headers).sort()).toEqual(Object.values(depositV1SignatureScheme.headers).sort());
  });

  it("signs as one of the mock's sites by its key, or with typed credentials", async () => {
    const created = (await server.control.createSite({ body: {} })).body.result;
    const byKey = await sign({ method: 'GET', path: '/v1/public/assets', api_key: created.site.api_key });
    expect(byKey.site_id).toBe(created.site.id);
    expect(await sendSigned('GET', '/v1/public/assets', byKey.headers)).toMatchObject({ status: 200 });

    const typed = await sign({ method: 'GET', path: '/v1/public/assets', api_key: created.site.api_key, api_secret: created.api_secret });
    expect(typed.site_id).toBe(created.site.id);
    expect(await sendSigned('GET', '/v1/public/assets', typed.headers)).toMatchObject({ status: 200 });

    const wrong = await sign({ method: 'GET', path: '/v1/public/assets', api_key: created.site.api_key, api_secret: 'not-the-secret-of-this-site' });
    expect(wrong.site_id).toBeNull();
    expect(await sendSigned('GET', '/v1/public/assets', wrong.headers)).toEqual({ status: 401, code: 'INVALID_SIGNATURE' });
  });

  it('refuses an unknown key without a secret, and a secret without a key', async () => {
    const unknown = await failure(server.control.signDepositRequest({ body: { method: 'GET', path: '/v1/public/assets', api_key: 'pk_nobody' } }));
    expect([unknown.status, unknown.details]).toEqual([422, { api_key: ['no site of this mock has this API key'] }]);
    const secretOnly = await failure(server.control.signDepositRequest({ body: { method: 'GET', path: '/v1/public/assets', api_secret: 'x'.repeat(40) } }));
    expect([secretOnly.status, secretOnly.details]).toEqual([422, { api_key: ['is required with api_secret'] }]);
    const relative = await failure(server.control.signDepositRequest({ body: { method: 'GET', path: 'v1/public/assets' } }));
    expect(Object.keys(relative.details)).toEqual(['path']);
  });

  it('refuses with 422 a key the X-Api-Key header cannot carry', async () => {
    // Headers#set throws on a value outside Latin-1: a key of emoji was a 500.
    for (const api_key of ['😀'.repeat(20), 'pk with space', 'pk\u00e9']) {
      const refused = await failure(server.control.signDepositRequest({ body: { method: 'GET', path: '/', api_key, api_secret: ' ' } }));
      expect([refused.status, Object.keys(refused.details)]).toEqual([422, ['api_key']]);
    }
  });
});
