// v1 deposits on the simulated chain, over real HTTP (strict mode: every response is checked
// against the contracts) with the signed generated DepositV1Client: create → inject →
// confirmations → paid with its webhook delivered to the built-in inbox and verified; paid over;
// underpaid then paid_partial at expiry; expiry then refresh revival; refresh 429; memo networks;
// idempotency by order_id; cross-site isolation; the keyset cursor walk.
import { beforeEach, describe, expect, it } from 'vitest';
import { DepositV1Client, createHmacSigner, depositV1SignatureScheme, verifyWebhookSignature } from '../../generated/deposit-v1/client.js';
import type { Deposit } from '../../generated/deposit-v1/types.js';
import { webhookValidators } from '../../generated/deposit-v1/validators.js';
import { failure } from './support/failure.js';
import { headerRecorder } from './support/keys.js';
import { inboxUrlOf, useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
let inboxUrl: string;
useFrozenSandbox({ seed: 77 }, (started) => {
  server = started;
  inboxUrl = inboxUrlOf(started);
});
beforeEach(async () => {
  await server.control.clearInbox();
});

interface SiteUnderTest {
  v1: DepositV1Client;
  webhookSecret: string;
  headers: ReturnType<typeof headerRecorder>;
}

async function createSite(): Promise<SiteUnderTest> {
  const created = await server.control.createSite({ body: { callback_url: inboxUrl } });
  const { site, api_secret, webhook_secret } = created.body.result;
  const signer = createHmacSigner(depositV1SignatureScheme, { key: site.api_key, secret: api_secret }, { now: () => server.sandbox.clock.nowMs() });
  const headers = headerRecorder();
  return { v1: new DepositV1Client({ baseUrl: server.url, signer, retry: false, fetch: headers.fetch }), webhookSecret: webhook_secret, headers };
}

async function advance(seconds: number): Promise<void> {
  await server.control.advanceClock({ body: { seconds } });
}

async function pay(deposit: Deposit, amount: string, extra: { memo?: string; confirmations?: number } = {}) {
  const body = { network: deposit.network, address: deposit.address, amount, ...extra };
  return (await server.control.injectChainTransaction({ body })).body.result;
}

async function confirm(hash: string, count: number) {
  return (await server.control.addChainConfirmations({ path: { hash }, body: { count } })).body.result;
}

async function inbox(type?: string) {
  await server.control.runDueWebhooks();
  return (await server.control.listInboxWebhooks({ query: type === undefined ? {} : { event_type: type } })).body.result.deliveries;
}

describe('a deposit paid on the simulated chain', () => {
  it('create → inject → confirmations → paid, with a signed deposit.paid webhook', async () => {
    const site = await createSite();
    const created = await site.v1.createDeposit({ body: { order_id: 'ORD-1', asset: 'USDT_TRON', amount: '150.00' } });
    expect(created.status).toBe(201);
    const deposit = created.body.data;
    expect(deposit).toMatchObject({ orderId: 'ORD-1', asset: 'USDT_TRON', network: 'TRON', memo: null, status: 'waiting', receivedAmount: '0', transaction: null, isFinal: false });
    expect(deposit.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(Date.parse(deposit.expiresAt) - Date.parse(deposit.createdAt)).toBe(3600_000);

    const tx = await pay(deposit, '150.00');
    expect(tx).toMatchObject({ deposit_uuid: deposit.uuid, confirmations: 0, required_confirmations: 20, block_height: null });
    const seen = (await site.v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data;
    expect(seen.status).toBe('confirming');
    expect(seen.transaction).toMatchObject({ hash: tx.hash, amount: '150.00', fromAddress: tx.from, confirmations: 0, requiredConfirmations: 20, confirmedAt: null });

    const confirmed = await confirm(tx.hash, 20);
    expect(confirmed.confirmations).toBe(20);
    const paid = (await site.v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data;
    // The transaction keeps the amount as sent; what the deposit received is computed, in the form of any amount.
    expect(paid).toMatchObject({ status: 'paid', isFinal: true, receivedAmount: '150', transaction: { amount: '150.00' } });
    expect(paid.paidAt).not.toBeNull();
    expect(paid.transaction?.confirmedAt).not.toBeNull();

    const delivered = await inbox('deposit.paid');
    expect(delivered).toHaveLength(1);
    const [hook] = delivered;
    expect(hook!.signature_valid).toBe(true);
    expect(verifyWebhookSignature(hook!.body, hook!.headers['x-signature'] ?? '', site.webhookSecret)).toBe(true);
    const body: unknown = JSON.parse(hook!.body);
    expect(webhookValidators['deposit.paid'](body), JSON.stringify(webhookValidators['deposit.paid'].errors)).toBe(true);
    expect(body).toMatchObject({ type: 'deposit.paid', isFinal: true, data: { deposit: { uuid: deposit.uuid, status: 'paid' } } });
    expect((await inbox()).map((d) => d.event_type)).toEqual(['deposit.confirming', 'deposit.paid']);
  });

  it('confirmations accrue from the block time as the clock advances', async () => {
    const site = await createSite();
    const deposit = (await site.v1.createDeposit({ body: { order_id: 'ORD-2', asset: 'BTC', amount: '0.0125' } })).body.data;
    await pay(deposit, '0.0125');
    await advance(600); // one Bitcoin block
    expect((await site.v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data).toMatchObject({ status: 'confirming', transaction: { confirmations: 1 } });
    await advance(600);
    const paid = (await site.v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data;
    expect(paid).toMatchObject({ status: 'paid', transaction: { confirmations: 2, requiredConfirmations: 2 } });
    expect(paid.transaction?.blockHeight).toBeGreaterThan(0);
  });

  it('an overpayment is paid_over', async () => {
    const site = await createSite();
    const deposit = (await site.v1.createDeposit({ body: { order_id: 'ORD-3', asset: 'USDT_TRON', amount: '150' } })).body.data;
    await pay(deposit, '150.000001', { confirmations: 20 });
    expect((await site.v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data).toMatchObject({ status: 'paid_over', receivedAmount: '150.000001' });
    expect(await inbox('deposit.paid_over')).toHaveLength(1);
  });

  it('adds the payments up in the form of any amount: 0.004 and 0.006 received are 0.01', async () => {
    const site = await createSite();
    const deposit = (await site.v1.createDeposit({ body: { order_id: 'ORD-SUM', asset: 'BTC', amount: '0.01' } })).body.data;
    await pay(deposit, '0.004', { confirmations: 6 });
    await pay(deposit, '0.006', { confirmations: 6 });
    expect((await site.v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data).toMatchObject({ status: 'paid', receivedAmount: '0.01' });
  });

  it('an underpayment is underpaid, a top-up adds up, and the lifetime end makes it paid_partial', async () => {
    const site = await createSite();
    const deposit = (await site.v1.createDeposit({ body: { order_id: 'ORD-4', asset: 'USDT_TRON', amount: '150.00' } })).body.data;
    await pay(deposit, '100', { confirmations: 20 });
    expect((await site.v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data).toMatchObject({ status: 'underpaid', isFinal: false });
    await pay(deposit, '20.5', { confirmations: 20 });
    expect((await site.v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data).toMatchObject({ status: 'underpaid', receivedAmount: '120.5' });
    await advance(3600);
    const partial = (await site.v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data;
    expect(partial).toMatchObject({ status: 'paid_partial', isFinal: true, paidAt: deposit.expiresAt });
    expect((await inbox()).map((d) => d.event_type)).toEqual([
      'deposit.confirming', 'deposit.underpaid', 'deposit.confirming', 'deposit.underpaid', 'deposit.paid_partial',
    ]);
  });
});

describe('expiry, late payment and refresh', () => {
  it('expires without a payment, and a late payment within the late window revives it', async () => {
    const site = await createSite();
    const deposit = (await site.v1.createDeposit({ body: { order_id: 'ORD-5', asset: 'TRX', amount: '50', lifetime: 300 } })).body.data;
    await advance(301);
    expect((await site.v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data.status).toBe('expired');
    const tx = await pay(deposit, '50', { confirmations: 20 });
    expect(tx.deposit_uuid).toBe(deposit.uuid);
    expect((await site.v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data.status).toBe('paid');
    expect((await inbox()).map((d) => d.event_type)).toEqual(['deposit.expired', 'deposit.late_payment', 'deposit.paid']);
  });

  it('after the late window, a refresh finds the transaction and revives the deposit', async () => {
    const site = await createSite();
    const deposit = (await site.v1.createDeposit({ body: { order_id: 'ORD-6', asset: 'USDT_TRON', amount: '10' } })).body.data;
    await advance(3600 + 86_400);
    const tx = await pay(deposit, '10');
    expect(tx.deposit_uuid).toBeNull();
    expect((await site.v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data).toMatchObject({ status: 'expired', transaction: null });
    const refreshed = (await site.v1.refreshDeposit({ path: { uuid: deposit.uuid } })).body.data;
    expect(refreshed).toMatchObject({ status: 'confirming', transaction: { hash: tx.hash } });
    await confirm(tx.hash, 20);
    expect((await site.v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data.status).toBe('paid');
    expect((await inbox()).map((d) => d.event_type)).toEqual(['deposit.expired', 'deposit.revived', 'deposit.paid']);
  });

  it('refreshes at most once per 30 s per deposit (429 RATE_LIMITED with Retry-After)', async () => {
    const site = await createSite();
    const deposit = (await site.v1.createDeposit({ body: { order_id: 'ORD-7', asset: 'BTC' } })).body.data;
    expect((await site.v1.refreshDeposit({ path: { uuid: deposit.uuid } })).status).toBe(200);
    await advance(10);
    const error = await failure(site.v1.refreshDeposit({ path: { uuid: deposit.uuid } }));
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(site.headers.last().get('retry-after')).toBe('20');
    await advance(20);
    expect((await site.v1.refreshDeposit({ path: { uuid: deposit.uuid } })).status).toBe(200);
  });
});

describe('memo networks', () => {
  it('shares one address, tells deposits apart by memo, and does not match a payment without it', async () => {
    const site = await createSite();
    const a = (await site.v1.createDeposit({ body: { order_id: 'ORD-8', asset: 'XRP', amount: '25.5' } })).body.data;
    const b = (await site.v1.createDeposit({ body: { order_id: 'ORD-9', asset: 'XRP', amount: '25.5' } })).body.data;
    expect(a.address).toBe(b.address);
    expect(a.memo).toMatch(/^[1-9]\d*$/);
    expect(a.memo).not.toBe(b.memo);
    expect((await pay(a, '25.5')).deposit_uuid).toBeNull();
    expect((await site.v1.getDeposit({ path: { uuid: a.uuid } })).body.data.status).toBe('waiting');
    const tx = await pay(b, '25.5', { memo: b.memo!, confirmations: 1 });
    expect(tx.deposit_uuid).toBe(b.uuid);
    expect((await site.v1.getDeposit({ path: { uuid: b.uuid } })).body.data.status).toBe('paid');
    expect((await site.v1.getDeposit({ path: { uuid: a.uuid } })).body.data.status).toBe('waiting');
  });
});

describe('creation, lookups and the list', () => {
  it('is idempotent by (site, order_id, asset)', async () => {
    const site = await createSite();
    const first = await site.v1.createDeposit({ body: { order_id: 'ORD-10', asset: 'ETH', amount: '0.5' } });
    const again = await site.v1.createDeposit({ body: { order_id: 'ORD-10', asset: 'ETH', amount: '0.5' } });
    expect(again.status).toBe(201);
    expect(again.body.data.uuid).toBe(first.body.data.uuid);
    const other = await site.v1.createDeposit({ body: { order_id: 'ORD-10', asset: 'USDT_ETH', amount: '10' } });
    expect(other.body.data.uuid).not.toBe(first.body.data.uuid);
    // The newest deposit of the order id wins.
    expect((await site.v1.getDepositByOrderId({ path: { orderId: 'ORD-10' } })).body.data.uuid).toBe(other.body.data.uuid);
  });

  it('answers the most recently created deposit of an order id, also of deposits created at one instant', async () => {
    const site = await createSite();
    const created: Deposit[] = [];
    for (const asset of ['ETH', 'BTC', 'LTC', 'USDT_TRON']) {
      created.push((await site.v1.createDeposit({ body: { order_id: 'MULTI-4', asset } })).body.data);
      expect((await site.v1.getDepositByOrderId({ path: { orderId: 'MULTI-4' } })).body.data).toMatchObject({ uuid: created.at(-1)!.uuid, asset });
    }
    // The clock is frozen: every one has the same createdAt, so only the creation order tells them apart.
    expect(new Set(created.map((deposit) => deposit.createdAt)).size).toBe(1);
  });

  it('rejects an asset without deposits and an amount under the minimum (422 VALIDATION_ERROR)', async () => {
    const site = await createSite();
    const asset = await failure(site.v1.createDeposit({ body: { order_id: 'ORD-11', asset: 'USDC_TRON' } }));
    expect(asset).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    expect(Object.keys(asset.details)).toEqual(['asset']);
    const amount = await failure(site.v1.createDeposit({ body: { order_id: 'ORD-11', asset: 'BTC', amount: '0.00001' } }));
    expect(Object.keys(amount.details)).toEqual(['amount']);
  });

  it('keeps sites apart: another site\'s deposit is 404 NOT_FOUND', async () => {
    const mine = await createSite();
    const theirs = await createSite();
    const deposit = (await mine.v1.createDeposit({ body: { order_id: 'ORD-12', asset: 'BTC' } })).body.data;
    expect(await failure(theirs.v1.getDeposit({ path: { uuid: deposit.uuid } }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await failure(theirs.v1.getDepositByOrderId({ path: { orderId: 'ORD-12' } }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await failure(theirs.v1.refreshDeposit({ path: { uuid: deposit.uuid } }))).toMatchObject({ status: 404 });
    expect((await theirs.v1.listDeposits()).body.data).toEqual([]);
  });

  it('walks the history with the cursor, newest first, each deposit once, stable while deposits are added', async () => {
    const site = await createSite();
    const uuids: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      uuids.push((await site.v1.createDeposit({ body: { order_id: `ORD-L${i}`, asset: 'BTC' } })).body.data.uuid);
      if (i % 2 === 0) await advance(1);
    }
    const seen: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 10; pages += 1) {
      const { data, meta } = (await site.v1.listDeposits({ query: { cursor, perPage: 3 } })).body;
      expect(meta).toMatchObject({ page: null, total: null, lastPage: null, perPage: 3 });
      seen.push(...data.map((d) => d.uuid));
      if (pages === 0) await site.v1.createDeposit({ body: { order_id: 'ORD-NEW', asset: 'BTC' } });
      if (!meta.hasMore) break;
      cursor = meta.nextCursor!;
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(uuids));
    const all = (await site.v1.listDeposits({ query: { perPage: 100 } })).body;
    expect(all.meta).toMatchObject({ page: 1, total: 8, lastPage: 1, nextCursor: null, hasMore: false });
    const created = all.data.map((d) => Date.parse(d.createdAt));
    expect([...created].sort((x, y) => y - x)).toEqual(created);

    const paid = all.data[0]!;
    await pay(paid, '0.001', { confirmations: 2 });
    const filtered = (await site.v1.listDeposits({ query: { status: ['paid', 'paid_over'] } })).body;
    expect(filtered.data.map((d) => d.uuid)).toEqual([paid.uuid]);
  });
});
