// Bounded memory: the http layer's expiring stores (used nonces, rate-limit windows, idempotency
// records) drop their entries once the virtual clock passes their time to live, so a mock that
// runs for days holds only what is still live; and each store has a size bound besides.
// Observed through the real pipeline: every store the sandbox hands out is recorded.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exchangeV3Routes } from '../../generated/exchange-v3/routes.js';
import { VirtualClock } from '../../mock-server/clock.js';
import { nonceTtlMs } from '../../mock-server/http/authenticate-v3.js';
import { rateWindowMs } from '../../mock-server/http/rate-limit.js';
import { Sandbox } from '../../mock-server/sandbox.js';
import { ExpiringMap } from '../../mock-server/store/expiring-map.js';
import { mintKey, v3Client, v3Signer, type Mock } from '../mock-server/support/keys.js';
import { inboxUrlOf, startTestServer } from '../mock-server/support/server.js';

describe('the expiring stores of the pipeline', () => {
  const storeSpy = vi.spyOn(Sandbox.prototype, 'expiringStore');
  let mock: Mock;
  const stores = () => storeSpy.mock.results.map((result) => result.value as ExpiringMap<unknown>);
  const entries = () => stores().reduce((sum, store) => sum + store.size, 0);

  beforeAll(async () => {
    mock = await startTestServer({ seed: 31 });
    mock.sandbox.stopDispatching();
    await mock.control.freezeClock();
  });
  afterAll(async () => {
    storeSpy.mockRestore();
    await mock.close();
  });

  /** One signed, idempotent create by a fresh key: a nonce, a rate window and an idempotency record. */
  async function signedCreate(i: number): Promise<void> {
    const key = await mintKey(mock, { hmac_required: true });
    const client = v3Client(mock, key.token, { signer: v3Signer(mock, key.hmacSecret) });
    const created = await client.createWebhookEndpoint({ body: { name: `bounded ${i}`, url: inboxUrlOf(mock), events: ['api.test'] } });
    expect(created.status).toBe(201);
  }

  it('hold an entry per live nonce, key window and idempotency key, and none once the clock passes their lifetime', async () => {
    expect(stores().length).toBeGreaterThanOrEqual(3);
    const callers = 40;
    for (let i = 0; i < callers; i += 1) await signedCreate(i);
    // Each call left its nonce, its key's rate window and its idempotency record.
    expect(entries()).toBeGreaterThanOrEqual(3 * callers);

    const idempotencyMs = Math.max(...exchangeV3Routes.map((r) => (r.idempotency?.windowSeconds ?? 0) * 1000));
    const longestMs = Math.max(idempotencyMs, nonceTtlMs, rateWindowMs);
    await mock.control.advanceClock({ body: { seconds: Math.ceil(longestMs / 1000) + 1 } });
    // The next write of each store sweeps what expired: only the new call's three entries remain.
    await signedCreate(callers);
    expect(entries()).toBe(3);
  });

  it('never exceed their size bound, oldest entries going first', async () => {
    const clock = new VirtualClock();
    const store = new ExpiringMap<number>(clock, 100);
    for (let i = 0; i < 1_000; i += 1) await store.set(`k${i}`, i, 60_000);
    expect(store.size).toBe(100);
    expect(await store.get('k899')).toBeUndefined();
    expect(await store.get('k900')).toBe(900);
  });
});
