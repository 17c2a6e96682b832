// The API's guarantees over real HTTP, on every engine: a rate window and a nonce cannot be spent
// twice by pipelined requests, concurrent duplicates of an idempotent request run once, an
// idempotency record survives another tenant's flood, and a caller past its bound of records is
// refused with the documented 429 rather than anyone's record being evicted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeV3SignatureScheme } from '../../generated/exchange-v3/client.js';
import { createHmacSigner } from '../../generated/runtime/client-runtime.js';
import type { SandboxStore } from '../../mock-server/store/sandbox-store.js';
import { mintKey, v3Client, type Mock } from '../mock-server/support/keys.js';
import { inboxUrlOf, startTestServer } from '../mock-server/support/server.js';
import { engines } from './support/engines.js';
import { pipelined } from './support/pipelined.js';

const ping = (token: string, headers: Record<string, string> = {}) => ({ method: 'GET', path: '/api/v3/private/ping', headers: { authorization: `Bearer ${token}`, ...headers } });

/** The signature headers of one signed GET /private/ping, as the generated client sends them. */
async function signedPingHeaders(mock: Mock, secret: string): Promise<Record<string, string>> {
  const headers = new Headers();
  const signer = createHmacSigner(exchangeV3SignatureScheme, { secret }, { now: () => mock.sandbox.clock.nowMs() });
  await signer({ method: 'GET', url: new URL(`${mock.url}/api/v3/private/ping`), headers, body: undefined });
  return Object.fromEntries(headers);
}

for (const makeEngine of engines) {
  const engine = makeEngine();
  describe(`guarantees over HTTP on ${engine.name}`, () => {
    let store: SandboxStore;
    let mock: Mock;
    beforeAll(async () => {
      store = await engine.open();
      mock = await startTestServer({ seed: 5, store, idempotencyRecordsPerCaller: 40 });
      mock.sandbox.stopDispatching();
      await mock.control.freezeClock();
    });
    afterAll(async () => {
      await mock.close();
      await engine.cleanUp();
    });

    it('answer 50 pipelined pings of a 10-a-minute key with exactly 10 × 200', async () => {
      const key = await mintKey(mock, { rate_limit_per_minute: 10 });
      const statuses = await pipelined(mock.url, Array.from({ length: 50 }, () => ping(key.token)));
      expect(statuses).toHaveLength(50);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    });

    it('accept one signed request pipelined 20 times exactly once', async () => {
      const key = await mintKey(mock, { hmac_required: true });
      const signature = await signedPingHeaders(mock, key.hmacSecret);
      const statuses = await pipelined(mock.url, Array.from({ length: 20 }, () => ping(key.token, signature)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 401)).toHaveLength(19);
    });

    it('run 100 concurrent duplicates of an idempotent create once', async () => {
      const key = await mintKey(mock);
      const client = v3Client(mock, key.token, { headers: { 'Idempotency-Key': 'same-endpoint-0001' } });
      const body = { name: 'once', url: inboxUrlOf(mock), events: ['api.test' as const] };
      const answers = await Promise.all(Array.from({ length: 100 }, () => client.createWebhookEndpoint({ body })));
      expect(new Set(answers.map((a) => a.body.result.endpoint.id)).size).toBe(1);
      const listed = await client.listWebhookEndpoints();
      expect(listed.body.result.endpoints).toHaveLength(1);
    });

    it("keep a tenant's record through another tenant's flood, and bound the flooder with 429 quota_exceeded", async () => {
      const tenantA = v3Client(mock, (await mintKey(mock)).token, { headers: { 'Idempotency-Key': 'tenant-a-order-1' } });
      const body = { name: 'A', url: inboxUrlOf(mock), events: ['api.test' as const] };
      const first = await tenantA.createWebhookEndpoint({ body });
      const flooder = (await mintKey(mock)).token;
      const statuses: number[] = [];
      for (let i = 0; i < 45; i += 1) {
        // An invalid body is enough: its final 422 is kept under the key like any answer.
        const answer = await fetch(`${mock.url}/api/v3/private/webhooks`, {
          method: 'POST',
          headers: { authorization: `Bearer ${flooder}`, 'content-type': 'application/json', 'idempotency-key': `flood-key-${String(i).padStart(4, '0')}` },
          body: JSON.stringify({ name: 'flood' }),
        });
        statuses.push(answer.status);
        if (answer.status === 429) {
          const envelope = (await answer.json()) as { error: { code: string } };
          expect(envelope.error.code).toBe('quota_exceeded');
          expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        } else await answer.arrayBuffer();
      }
      expect(statuses.filter((s) => s === 429)).toHaveLength(5);
      const retried = await tenantA.createWebhookEndpoint({ body });
      expect(retried.headers.get('idempotent-replayed')).toBe('true');
      expect(retried.body.result.endpoint.id).toBe(first.body.result.endpoint.id);
    });
  });
}
