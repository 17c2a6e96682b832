// AML screening over real HTTP through the signed DepositV1Client and the control API: the
// provider's allowlist (listAmlCurrencies, set to [] = not synced), a delayed high-risk answer
// (pending → advance the clock → getAmlCheck reconciles to completed), an unsupported currency
// (skipped), an X-Idempotency-Key repeat that sends nothing to the provider (its counter proves
// it), and another site's check answering 404. Strict mode checks every body against the contract.
import { describe, expect, it } from 'vitest';
import { DepositV1Client, createHmacSigner, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { fireAml } from '../../mock-server/domain/aml/aml-machine.js';
import { defaultAllowlist, defaultAnswer } from '../../mock-server/domain/aml/aml-provider.js';
import { failure } from './support/failure.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';

const tronAddress = 'TXFBqBbqJommqZf7BV8NNYzePh97UmJodJ';
const tonAddress = 'EQD2NmD_lH5f5u1Kj3KfGyTvhZSX0Eg6qp2a5IQUKXxOG21n';

let server: TestServer;
useFrozenSandbox({ seed: 61 }, (started) => (server = started));

async function providerCalls(): Promise<number> {
  return (await server.control.getAmlProvider()).body.result.calls;
}

async function otherSite(): Promise<DepositV1Client> {
  const created = await server.control.createSite({ body: {} });
  const { site, api_secret } = created.body.result;
  const signer = createHmacSigner(depositV1SignatureScheme, { key: site.api_key, secret: api_secret }, { now: () => server.sandbox.clock.nowMs() });
  return new DepositV1Client({ baseUrl: server.url, signer, retry: false });
}

describe('listAmlCurrencies', () => {
  it('lists the default allowlist: the catalog without TON', async () => {
    const listed = (await server.v1.listAmlCurrencies()).body.data;
    expect(listed).toEqual(defaultAllowlist());
    expect(listed).toContainEqual({ code: 'USDT', network: 'TRON', name: 'Tether USD (TRC20)' });
    expect(listed.some((c) => c.network === 'TON')).toBe(false);
  });

  it('is empty when the provider is set to not synced, and back to the default after a reset', async () => {
    const set = await server.control.setAmlCurrencies({ body: { currencies: [] } });
    expect(set.status).toBe(200);
    expect(set.body.result.currencies).toEqual([]);
    expect((await server.v1.listAmlCurrencies()).body.data).toEqual([]);
    await server.control.resetSandbox();
    expect((await server.v1.listAmlCurrencies()).body.data).toEqual(defaultAllowlist());
  });

  it('takes a configured allowlist, naming catalog assets from the catalog', async () => {
    await server.control.setAmlCurrencies({ body: { currencies: [{ code: 'BTC', network: 'BTC' }, { code: 'FOO', network: 'ETH', name: 'Foo' }] } });
    expect((await server.v1.listAmlCurrencies()).body.data).toEqual([
      { code: 'BTC', network: 'BTC', name: 'Bitcoin' },
      { code: 'FOO', network: 'ETH', name: 'Foo' },
    ]);
  });

  it('refuses a currency given twice (422)', async () => {
    const error = await failure(server.control.setAmlCurrencies({ body: { currencies: [{ code: 'BTC', network: 'BTC' }, { code: 'BTC', network: 'BTC' }] } }));
    expect(error.status).toBe(422);
    expect(error.details.currencies).toBeDefined();
  });
});

describe('createAmlCheck / getAmlCheck', () => {
  it('a delayed high-risk answer: pending, then completed with the configured score and level once the clock passes the delay', async () => {
    const answer = await server.control.setAmlAnswer({ body: { address: tronAddress, score: 71, level: 'high', delay_seconds: 120 } });
    expect(answer.status).toBe(201);
    expect(answer.body.result).toMatchObject({ address: tronAddress, score: 71, level: 'high', delay_seconds: 120 });

    const created = await server.v1.createAmlCheck({ body: { currency: 'USDT', network: 'TRON', address: tronAddress } });
    expect(created.status).toBe(201);
    const check = created.body.data;
    expect(check).toMatchObject({ type: 'address', status: 'pending', riskScore: null, riskLevel: null, txHash: null, checkedAt: null, provider: 'amlbot' });

    // Before the delay the read asks the provider again and stays pending.
    await server.control.advanceClock({ body: { seconds: 60 } });
    expect((await server.v1.getAmlCheck({ path: { uuid: check.uuid } })).body.data.status).toBe('pending');

    await server.control.advanceClock({ body: { seconds: 60 } });
    const read = (await server.v1.getAmlCheck({ path: { uuid: check.uuid } })).body.data;
    expect(read).toMatchObject({ uuid: check.uuid, status: 'completed', riskScore: 71, riskLevel: 'high', reason: null });
    expect(read.checkedAt).toBe(server.sandbox.clock.now().toISOString());
    // Send + two reads of the pending check.
    expect(await providerCalls()).toBe(3);
    // A completed check is not sent again.
    await server.v1.getAmlCheck({ path: { uuid: check.uuid } });
    expect(await providerCalls()).toBe(3);
  });

  it('a provider failure: pending until its delay passes, then failed with the reason; a failure at once fails at creation', async () => {
    const answer = await server.control.setAmlAnswer({ body: { address: tronAddress, outcome: 'failed', reason: 'Upstream timeout at the provider.', delay_seconds: 30 } });
    expect(answer.body.result).toMatchObject({ address: tronAddress, outcome: 'failed', score: null, level: null, reason: 'Upstream timeout at the provider.' });
    const check = (await server.v1.createAmlCheck({ body: { currency: 'USDT', network: 'TRON', address: tronAddress } })).body.data;
    expect(check.status).toBe('pending');
    await server.control.advanceClock({ body: { seconds: 30 } });
    const read = (await server.v1.getAmlCheck({ path: { uuid: check.uuid } })).body.data;
    expect(read).toMatchObject({ status: 'failed', riskScore: null, riskLevel: null, reason: 'Upstream timeout at the provider.' });
    expect(read.checkedAt).toBe(server.sandbox.clock.now().toISOString());
    // A failed check is final: it is not sent again.
    const calls = await providerCalls();
    await server.v1.getAmlCheck({ path: { uuid: check.uuid } });
    expect(await providerCalls()).toBe(calls);

    const other = '0x8589427373D6D84E98730D7795D8f6f8731FDA16';
    await server.control.setAmlAnswer({ body: { address: other, outcome: 'failed' } });
    const atOnce = (await server.v1.createAmlCheck({ body: { currency: 'ETH', network: 'ETH', address: other } })).body.data;
    expect(atOnce).toMatchObject({ status: 'failed', reason: 'The provider could not screen the address.' });
  });

  it('refuses an answer without score and level, and a failure with one (422)', async () => {
    for (const body of [{ address: tronAddress, level: 'low' }, { address: tronAddress, outcome: 'failed', score: 3 }, { address: tronAddress, score: 3, level: 'low', reason: 'no' }]) {
      const error = await failure(server.control.setAmlAnswer({ body: body as never }));
      expect([error.status, error.code]).toEqual([422, 'validation_error']);
    }
    expect((await server.control.getAmlProvider()).body.result.answers).toEqual([]);
  });

  it('screens a transaction, and an address without an answer gets a deterministic low score at once', async () => {
    const txHash = '540784c5100d93af392989e26ceac098821cade3383142d58b5429ae9b320372';
    const created = (await server.v1.createAmlCheck({ body: { type: 'transaction', currency: 'USDT', network: 'TRON', address: tronAddress, txHash } })).body.data;
    const expected = defaultAnswer(tronAddress);
    if (expected.failed) throw new Error('the default answer is never a failure');
    expect(created).toMatchObject({ type: 'transaction', txHash, status: 'completed', riskScore: expected.score, riskLevel: 'low' });
    expect(expected.score).toBeGreaterThanOrEqual(0);
    expect(expected.score).toBeLessThan(25);
  });

  it('a transaction check without txHash is refused (422)', async () => {
    const error = await failure(server.v1.createAmlCheck({ body: { type: 'transaction', currency: 'USDT', network: 'TRON', address: tronAddress } as never }));
    expect(error.status).toBe(422);
  });

  it('an unsupported currency is skipped with a reason, without a provider request', async () => {
    const created = (await server.v1.createAmlCheck({ body: { currency: 'TON', network: 'TON', address: tonAddress } })).body.data;
    expect(created).toMatchObject({ status: 'skipped', riskScore: null, riskLevel: null, reason: 'The provider does not support TON on network TON.' });
    expect(created.checkedAt).toBe(created.createdAt);
    expect(await providerCalls()).toBe(0);
    expect((await server.v1.getAmlCheck({ path: { uuid: created.uuid } })).body.data.status).toBe('skipped');
  });

  it('with an empty allowlist (not synced) nothing is skipped', async () => {
    await server.control.setAmlCurrencies({ body: { currencies: [] } });
    const created = (await server.v1.createAmlCheck({ body: { currency: 'TON', network: 'TON', address: tonAddress } })).body.data;
    expect(created.status).toBe('completed');
    expect(await providerCalls()).toBe(1);
  });

  it('a repeat with the same X-Idempotency-Key returns the same check and does not consume provider quota', async () => {
    const headers = { 'X-Idempotency-Key': 'aml-check-0001-repeat' };
    const body = { currency: 'USDT', network: 'TRON', address: tronAddress };
    const first = await server.v1.createAmlCheck({ headers, body });
    expect(await providerCalls()).toBe(1);
    const repeat = await server.v1.createAmlCheck({ headers, body });
    expect(repeat.status).toBe(201);
    expect(repeat.body.data).toEqual(first.body.data);
    expect(await providerCalls()).toBe(1);
    // Without the key a second check is a new request.
    const fresh = await server.v1.createAmlCheck({ body });
    expect(fresh.body.data.uuid).not.toBe(first.body.data.uuid);
    expect(await providerCalls()).toBe(2);
  });

  it("another site's check is 404 NOT_FOUND, as is an unknown uuid", async () => {
    const check = (await server.v1.createAmlCheck({ body: { currency: 'BTC', network: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' } })).body.data;
    const other = await otherSite();
    const error = await failure(other.getAmlCheck({ path: { uuid: check.uuid } }));
    expect(error.status).toBe(404);
    expect(error.code).toBe('NOT_FOUND');
    const unknown = await failure(server.v1.getAmlCheck({ path: { uuid: '00000000-0000-4000-8000-000000000000' } }));
    expect(unknown.status).toBe(404);
    // The owner still reads it.
    expect((await server.v1.getAmlCheck({ path: { uuid: check.uuid } })).body.data.uuid).toBe(check.uuid);
  });

  it('a reset clears the answers, the counter and the checks', async () => {
    await server.control.setAmlAnswer({ body: { address: tronAddress, score: 90, level: 'severe' } });
    const check = (await server.v1.createAmlCheck({ body: { currency: 'USDT', network: 'TRON', address: tronAddress } })).body.data;
    expect(check).toMatchObject({ status: 'completed', riskScore: 90, riskLevel: 'severe' });
    await server.control.resetSandbox();
    expect((await server.control.getAmlProvider()).body.result).toEqual({ calls: 0, answers: [] });
    expect((await failure(server.v1.getAmlCheck({ path: { uuid: check.uuid } }))).status).toBe(404);
  });
});

describe('the aml-check machine', () => {
  it('is executed from the generated table: the guard decides currency_unsupported', () => {
    expect(fireAml('pending', 'currency_unsupported', { currency_not_in_allowlist: true })).toBe('skipped');
    expect(() => fireAml('pending', 'currency_unsupported')).toThrow();
    expect(fireAml('pending', 'provider_answered')).toBe('completed');
    expect(fireAml('pending', 'provider_failed')).toBe('failed');
    expect(() => fireAml('completed', 'provider_answered')).toThrow();
  });
});
