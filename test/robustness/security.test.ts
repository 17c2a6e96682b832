// Security properties of issue 9 not covered elsewhere:
// - secrets are shown once: after a key, a site and a webhook endpoint are created, no GET of
//   any family (v3 with the new key, v1 signed by the new site, the control API) answers with
//   their token or secrets (the webhook event stream included: its signed deliveries carry none);
// - credentials are compared in constant time: a wrong v3 signature, a wrong v1 signature and a
//   wrong admin token are each rejected after a crypto.timingSafeEqual over equal-length buffers.
// Covered elsewhere (not repeated here): webhook secret shown only on create and rotate, then its
// fingerprint (test/mock-server/webhooks-v3.test.ts); oversize bodies → 413 in each family
// (test/mock-server/platform.test.ts); a replayed nonce → signature_replay
// (test/mock-server/auth.test.ts); tokens and secrets never in the request log (the CLI's suite).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHmacSigner, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { exchangeV3SignatureScheme, type RequestSigner } from '../../generated/exchange-v3/client.js';
import { sandboxControlSecuritySchemes } from '../../generated/sandbox-control/contract-data.js';
import { documentedResponses } from '../../conformance/contract/document.js';
import { operationExtension } from '../../mock-server/bundled-contracts.js';
import { families, type FamilyName } from '../mock-server/support/contract.js';
import { bearer, send } from '../mock-server/support/http.js';
import { mintKey, v3Client, v3Signer } from '../mock-server/support/keys.js';
import { validPathValues, fillPath } from '../mock-server/support/paths.js';
import { inboxUrlOf, startTestServer, type TestServer } from '../mock-server/support/server.js';

const comparisons = vi.hoisted(() => ({ calls: [] as [Uint8Array, Uint8Array][] }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  const timingSafeEqual = (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
    comparisons.calls.push([a as Uint8Array, b as Uint8Array]);
    return actual.timingSafeEqual(a, b);
  };
  return { ...actual, default: { ...actual, timingSafeEqual }, timingSafeEqual };
});

describe('secrets are shown once', () => {
  let server: TestServer;
  const secrets: Record<string, string> = {};
  let v3Token = '';
  let site = { key: '', secret: '' };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ seed: 37 });
    server.sandbox.stopDispatching();
    const key = await mintKey(server, {});
    v3Token = key.token;
    secrets['v3 token'] = key.token;
    secrets['v3 hmac secret'] = key.hmacSecret;
    const endpoint = (await v3Client(server, key.token).createWebhookEndpoint({ body: { name: 'once', url: inboxUrlOf(server), events: ['api.test'] } })).body.result.endpoint;
    secrets['webhook secret'] = endpoint.secret!;
    ids.webhook = endpoint.id;
    const created = (await server.control.createSite({ body: {} })).body.result;
    site = { key: created.site.api_key, secret: created.api_secret };
    secrets['site api secret'] = created.api_secret;
    secrets['site webhook secret'] = created.webhook_secret;
  });
  afterAll(async () => {
    await server.close();
  });

  async function getAs(family: FamilyName, target: string) {
    const headers = new Headers(family === 'v3' ? bearer(v3Token) : {});
    if (family === 'v1') {
      const signer = createHmacSigner(depositV1SignatureScheme, site, { now: () => server.sandbox.clock.nowMs() });
      await signer({ method: 'GET', url: new URL(server.url + target), headers, body: undefined });
    }
    return send(server.url, target, { headers: Object.fromEntries(headers) });
  }

  /**
   * An event stream (streamWebhookEvents) never ends: it is read until its first event, one
   * emitted here with a delivery to the endpoint created above, signed with its secret.
   */
  async function firstStreamedEvent(target: string): Promise<{ status: number; text: string }> {
    const controller = new AbortController();
    const response = await fetch(server.url + target, { signal: controller.signal });
    await v3Client(server, v3Token).sendTestWebhook({ body: { endpoint_id: ids.webhook! } }); // set by beforeAll
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) {
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      if (text.includes('event: webhook')) break;
    }
    controller.abort();
    return { status: response.status, text };
  }

  const isEventStream = (family: FamilyName, operationId: string) =>
    family === 'control' && (documentedResponses('sandbox-control', operationId).get('200')?.contentTypes ?? []).includes('text/event-stream');

  // A snapshot export (exportSandboxState) says in the contract that it carries every secret, as
  // a database dump does; it is the control API's, which a shared sandbox guards with a token.
  const carriesSecrets = (family: FamilyName, operationId: string) => family === 'control' && operationExtension('sandbox-control', operationId, 'x-carries-secrets') !== undefined;

  it.each(['v3', 'v1', 'control'] as FamilyName[])('no %s GET answers with a token or secret after its creation', async (family) => {
    const reads = families[family].routes.filter((route) => route.method === 'get' && !carriesSecrets(family, route.operationId));
    expect(reads.length).toBeGreaterThan(0);
    for (const route of reads) {
      const values = { ...validPathValues(family, route), ...Object.fromEntries(Object.entries(ids).filter(([name]) => route.path.includes(`{${name}}`))) };
      const target = fillPath(family, route, values);
      const response = isEventStream(family, route.operationId) ? await firstStreamedEvent(target) : await getAs(family, target);
      for (const [what, secret] of Object.entries(secrets)) {
        expect(response.text.includes(secret), `${family} ${route.operationId} (${response.status}) shows the ${what}`).toBe(false);
      }
    }
  });
});

describe('credentials are compared in constant time', () => {
  let server: TestServer;
  const adminToken = 'admin-token-security-0123456789';

  beforeAll(async () => {
    server = await startTestServer({ seed: 41, adminToken });
    server.sandbox.stopDispatching();
  });
  afterAll(async () => {
    await server.close();
  });

  /** Runs `request` and returns the timingSafeEqual calls it made. */
  async function comparedDuring(request: () => Promise<number>, status: number): Promise<[Uint8Array, Uint8Array][]> {
    comparisons.calls.length = 0;
    expect(await request()).toBe(status);
    return [...comparisons.calls];
  }

  /** A signer whose signature is the right one with its last hex digit changed: same length, wrong value. */
  function corrupting(signer: RequestSigner, header: string): RequestSigner {
    return async (request) => {
      await signer(request);
      const signature = request.headers.get(header)!;
      request.headers.set(header, signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0'));
    };
  }

  /** Status of a GET of `operationId` signed by `signer`, with extra headers. */
  async function signedGet(family: FamilyName, operationId: string, signer: RequestSigner, extra: Record<string, string> = {}): Promise<number> {
    const target = `${families[family].basePath}${families[family].routes.find((r) => r.operationId === operationId)!.path}`;
    const headers = new Headers(extra);
    await signer({ method: 'GET', url: new URL(server.url + target), headers, body: undefined });
    return (await send(server.url, target, { headers: Object.fromEntries(headers) })).status;
  }

  it('a v3 signature', async () => {
    const key = await mintKey(server, { hmac_required: true });
    const signer = corrupting(v3Signer(server, key.hmacSecret), exchangeV3SignatureScheme.headers.signature);
    const calls = await comparedDuring(() => signedGet('v3', 'privatePing', signer, bearer(key.token)), 401);
    expect(calls.length).toBeGreaterThan(0);
    for (const [a, b] of calls) expect(a.length).toBe(b.length);
  });

  it('a v1 site signature', async () => {
    const base = createHmacSigner(depositV1SignatureScheme, { key: server.site.apiKey, secret: server.site.apiSecret }, { now: () => server.sandbox.clock.nowMs() });
    const signer = corrupting(base, depositV1SignatureScheme.headers.signature);
    const calls = await comparedDuring(() => signedGet('v1', 'listDeposits', signer), 401);
    expect(calls.length).toBeGreaterThan(0);
    for (const [a, b] of calls) expect(a.length).toBe(b.length);
  });

  it('the control API admin token', async () => {
    const wrong = `${adminToken.slice(0, -1)}X`;
    const header = sandboxControlSecuritySchemes.adminToken.name;
    const calls = await comparedDuring(async () => (await send(server.url, '/__mock/clock', { headers: { [header]: wrong } })).status, 401);
    expect(calls.length).toBe(1);
    expect(Buffer.from(calls[0]![0]).toString()).toBe(wrong);
  });
});
