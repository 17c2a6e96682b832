// Bounded memory by time, not by count: the nonces and idempotency records of the pipeline leave
// the store once the virtual clock passes their lifetime, so a mock that runs for days holds only
// what is still live; each key's meter stays until its month is over. Observed through the real
// pipeline and the sandbox's store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeV3Routes } from '../../generated/exchange-v3/routes.js';
import { nonceTtlMs } from '../../mock-server/http/authenticate-v3.js';
import { utcMonthStart } from '../../mock-server/domain/accounts/usage.js';
import { mintKey, v3Client, v3Signer, type Mock } from '../mock-server/support/keys.js';
import { inboxUrlOf, startTestServer } from '../mock-server/support/server.js';

describe('the records of the pipeline', () => {
  let mock: Mock;

  beforeAll(async () => {
    mock = await startTestServer({ seed: 31 });
    mock.sandbox.stopDispatching();
    await mock.control.freezeClock();
  });
  afterAll(async () => {
    await mock.close();
  });

  /** One signed, idempotent create by a fresh key: a nonce, the key's meter and an idempotency record. */
  async function signedCreate(i: number): Promise<void> {
    const key = await mintKey(mock, { hmac_required: true });
    const client = v3Client(mock, key.token, { signer: v3Signer(mock, key.hmacSecret) });
    const created = await client.createWebhookEndpoint({ body: { name: `bounded ${i}`, url: inboxUrlOf(mock), events: ['api.test'] } });
    expect(created.status).toBe(201);
  }

  it('hold a record per live nonce, key meter and idempotency key, and only the meters once the clock passes their lifetime', async () => {
    const callers = 40;
    for (let i = 0; i < callers; i += 1) await signedCreate(i);
    expect(await mock.sandbox.store.countExpiring()).toBe(3 * callers);

    const before = mock.sandbox.clock.now();
    const idempotencyMs = Math.max(...exchangeV3Routes.map((r) => (r.idempotency?.windowSeconds ?? 0) * 1000));
    await mock.control.advanceClock({ body: { seconds: Math.ceil(Math.max(idempotencyMs, nonceTtlMs) / 1000) + 1 } });
    // An advance sweeps what it made expire; a meter lives until its UTC month is over.
    const metersLeft = utcMonthStart(before) === utcMonthStart(mock.sandbox.clock.now()) ? callers : 0;
    expect(await mock.sandbox.store.countExpiring()).toBe(metersLeft);
    await signedCreate(callers);
    expect(await mock.sandbox.store.countExpiring()).toBe(metersLeft + 3);
  });
});
