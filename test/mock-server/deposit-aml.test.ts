// Deposit AML over real HTTP (strict mode: every body is checked against the contract) with the
// signed DepositV1Client: not_checked for each of its three reasons (AML off for the site, no
// transaction yet, currency unsupported by the provider); a delayed high-risk answer for the
// injected sender (pending → advance the clock → completed, reconciled on read) shown by
// getDepositAml, getDepositAmlByOrderId and the Deposit's amlStatus; another site's deposit is 404.
import { describe, expect, it } from 'vitest';
import { DepositV1Client, createHmacSigner, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import type { Deposit } from '../../generated/deposit-v1/types.js';
import { notCheckedReasons } from '../../mock-server/domain/deposits/deposit-aml.js';
import { failure } from './support/failure.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';

const sender = 'TXFBqBbqJommqZf7BV8NNYzePh97UmJodJ';

let server: TestServer;
useFrozenSandbox({ seed: 91 }, (started) => (server = started));

async function siteClient(amlEnabled = true): Promise<DepositV1Client> {
  const created = await server.control.createSite({ body: { aml_enabled: amlEnabled } });
  const { site, api_secret } = created.body.result;
  const signer = createHmacSigner(depositV1SignatureScheme, { key: site.api_key, secret: api_secret }, { now: () => server.sandbox.clock.nowMs() });
  return new DepositV1Client({ baseUrl: server.url, signer, retry: false });
}

async function pay(deposit: Deposit, amount: string, from = sender) {
  const body = { network: deposit.network, address: deposit.address, amount, from, ...(deposit.memo === null ? {} : { memo: deposit.memo }) };
  return (await server.control.injectChainTransaction({ body })).body.result;
}

describe('deposit AML: not_checked', () => {
  it('when no transaction has been seen yet (by uuid and by order id)', async () => {
    const v1 = await siteClient();
    const deposit = (await v1.createDeposit({ body: { order_id: 'ORD-A1', asset: 'USDT_TRON', amount: '10' } })).body.data;
    expect(deposit.amlStatus).toBe('not_checked');
    const expected = {
      depositUuid: deposit.uuid,
      orderId: 'ORD-A1',
      amlStatus: 'not_checked',
      reason: notCheckedReasons.noTransaction,
      senderAddress: null,
      riskScore: null,
      riskLevel: null,
      checkedAt: null,
    };
    expect((await v1.getDepositAml({ path: { uuid: deposit.uuid } })).body.data).toEqual(expected);
    expect((await v1.getDepositAmlByOrderId({ path: { orderId: 'ORD-A1' } })).body.data).toEqual(expected);
  });

  it('when AML is off for the site, even after a transaction, and the provider gets no request', async () => {
    const v1 = await siteClient(false);
    const deposit = (await v1.createDeposit({ body: { order_id: 'ORD-A2', asset: 'USDT_TRON', amount: '10' } })).body.data;
    await pay(deposit, '10');
    const aml = (await v1.getDepositAml({ path: { uuid: deposit.uuid } })).body.data;
    expect(aml).toMatchObject({ amlStatus: 'not_checked', reason: notCheckedReasons.amlOff, riskScore: null, riskLevel: null });
    expect((await v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data).toMatchObject({ status: 'confirming', amlStatus: 'not_checked' });
    expect((await server.control.getAmlProvider()).body.result.calls).toBe(0);
  });

  it('when the provider does not screen the currency on its network', async () => {
    await server.control.setAmlCurrencies({ body: { currencies: [{ code: 'BTC', network: 'BTC' }] } });
    const v1 = await siteClient();
    const deposit = (await v1.createDeposit({ body: { order_id: 'ORD-A3', asset: 'USDT_TRON', amount: '10' } })).body.data;
    await pay(deposit, '10');
    const aml = (await v1.getDepositAmlByOrderId({ path: { orderId: 'ORD-A3' } })).body.data;
    expect(aml).toMatchObject({ amlStatus: 'not_checked', reason: notCheckedReasons.unsupported('USDT', 'TRON'), senderAddress: sender, riskScore: null });
    expect((await server.control.getAmlProvider()).body.result.calls).toBe(0);
  });
});

describe('deposit AML: screening of the sender', () => {
  it('pending until the configured delay passes, then completed with the high risk, also on the deposit', async () => {
    await server.control.setAmlAnswer({ body: { address: sender, score: 83.5, level: 'high', delay_seconds: 120 } });
    const v1 = await siteClient();
    const deposit = (await v1.createDeposit({ body: { order_id: 'ORD-A4', asset: 'USDT_TRON', amount: '10' } })).body.data;
    await pay(deposit, '10');

    const pending = (await v1.getDepositAml({ path: { uuid: deposit.uuid } })).body.data;
    expect(pending).toEqual({
      depositUuid: deposit.uuid,
      orderId: 'ORD-A4',
      amlStatus: 'pending',
      reason: null,
      senderAddress: sender,
      riskScore: null,
      riskLevel: null,
      checkedAt: null,
    });
    expect((await v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data.amlStatus).toBe('pending');

    await server.control.advanceClock({ body: { seconds: 60 } });
    expect((await v1.getDepositAml({ path: { uuid: deposit.uuid } })).body.data.amlStatus).toBe('pending');

    await server.control.advanceClock({ body: { seconds: 61 } });
    const completed = (await v1.getDepositAmlByOrderId({ path: { orderId: 'ORD-A4' } })).body.data;
    expect(completed).toMatchObject({ amlStatus: 'completed', reason: null, senderAddress: sender, riskScore: 83.5, riskLevel: 'high' });
    expect(completed.checkedAt).toBe(server.sandbox.clock.now().toISOString());
    const shown = (await v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data;
    expect(shown.amlStatus).toBe('completed');
    expect(shown.transaction?.fromAddress).toBe(sender);
    // Completed once: later reads do not ask the provider again.
    const calls = (await server.control.getAmlProvider()).body.result.calls;
    await v1.getDepositAml({ path: { uuid: deposit.uuid } });
    expect((await server.control.getAmlProvider()).body.result.calls).toBe(calls);
  });

  it('failed with the reason when the provider cannot screen the sender', async () => {
    await server.control.setAmlAnswer({ body: { address: sender, outcome: 'failed', reason: 'The address is not on a supported chain.' } });
    const v1 = await siteClient();
    const deposit = (await v1.createDeposit({ body: { order_id: 'ORD-A6', asset: 'USDT_TRON', amount: '10' } })).body.data;
    await pay(deposit, '10');
    const aml = (await v1.getDepositAml({ path: { uuid: deposit.uuid } })).body.data;
    expect(aml).toMatchObject({ amlStatus: 'failed', reason: 'The address is not on a supported chain.', senderAddress: sender, riskScore: null, riskLevel: null });
    expect((await v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data.amlStatus).toBe('failed');
  });

  it('completes at once for a sender without a configured answer (low risk)', async () => {
    const v1 = await siteClient();
    const deposit = (await v1.createDeposit({ body: { order_id: 'ORD-A5', asset: 'BTC' } })).body.data;
    await pay(deposit, '0.01', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    const aml = (await v1.getDepositAml({ path: { uuid: deposit.uuid } })).body.data;
    expect(aml).toMatchObject({ amlStatus: 'completed', riskLevel: 'low' });
    expect((await v1.listDeposits({ query: {} })).body.data[0]!.amlStatus).toBe('completed');
  });

  it("another site's deposit is 404 by uuid and by order id", async () => {
    const mine = await siteClient();
    const theirs = await siteClient();
    const deposit = (await mine.createDeposit({ body: { order_id: 'ORD-A6', asset: 'BTC' } })).body.data;
    expect((await failure(theirs.getDepositAml({ path: { uuid: deposit.uuid } }))).status).toBe(404);
    expect((await failure(theirs.getDepositAmlByOrderId({ path: { orderId: 'ORD-A6' } }))).status).toBe(404);
  });
});
