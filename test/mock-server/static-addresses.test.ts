// v1 static addresses over real HTTP (strict mode: every response is checked against the
// contracts) with the signed generated DepositV1Client: a static address on a memo network
// receives several payments, each its own paid deposit with `staticAddress`, each with a signed
// deposit.paid and deposit.swept webhook; a payment without the memo is not matched; create is
// idempotent by orderId (another asset is a 409); lists walk with the cursor; sites are apart.
import { beforeEach, describe, expect, it } from 'vitest';
import { DepositV1Client, createHmacSigner, depositV1SignatureScheme, verifyWebhookSignature } from '../../generated/deposit-v1/client.js';
import type { StaticAddress } from '../../generated/deposit-v1/types.js';
import { webhookValidators } from '../../generated/deposit-v1/validators.js';
import { failure } from './support/failure.js';
import { inboxUrlOf, useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
let inboxUrl: string;
useFrozenSandbox({ seed: 91 }, (started) => {
  server = started;
  inboxUrl = inboxUrlOf(started);
});
beforeEach(async () => {
  await server.control.clearInbox();
});

async function createSite() {
  const created = await server.control.createSite({ body: { callback_url: inboxUrl } });
  const { site, api_secret, webhook_secret } = created.body.result;
  const signer = createHmacSigner(depositV1SignatureScheme, { key: site.api_key, secret: api_secret }, { now: () => server.sandbox.clock.nowMs() });
  return { v1: new DepositV1Client({ baseUrl: server.url, signer, retry: false }), webhookSecret: webhook_secret };
}

async function pay(to: StaticAddress, amount: string, extra: { memo?: string | null; confirmations?: number } = {}) {
  const body = { network: to.network, address: to.address, amount, ...extra };
  return (await server.control.injectChainTransaction({ body: body as typeof body & { memo?: string } })).body.result;
}

async function inbox(type?: string) {
  await server.control.runDueWebhooks();
  return (await server.control.listInboxWebhooks({ query: type === undefined ? {} : { event_type: type } })).body.result.deliveries;
}

describe('static addresses', () => {
  it('a static address on XRP takes three payments, each its own paid deposit, each paid and swept', async () => {
    const site = await createSite();
    const created = await site.v1.createStaticAddress({ body: { orderId: 'user-1', asset: 'XRP' } });
    expect(created.status).toBe(201);
    const sa = created.body.data;
    expect(sa).toMatchObject({ orderId: 'user-1', asset: 'XRP', network: 'XRP', status: 'active', paymentsCount: 0 });
    expect(sa.memo).toMatch(/^\d+$/);

    // Memo networks share one address: a second static address differs only by its memo.
    const other = (await site.v1.createStaticAddress({ body: { orderId: 'user-2', asset: 'XRP' } })).body.data;
    expect(other.address).toBe(sa.address);
    expect(other.memo).not.toBe(sa.memo);

    const amounts = ['10', '25.5', '1.000001'];
    const txs = [];
    for (const amount of amounts) txs.push(await pay(sa, amount, { memo: sa.memo!, confirmations: 1 }));
    const uuids = txs.map((tx) => tx.deposit_uuid);
    expect(new Set(uuids).size).toBe(3);
    expect(uuids.every((u) => u !== null)).toBe(true);

    // Without the memo the payment is not matched.
    const stray = await pay(sa, '5', { confirmations: 1 });
    expect(stray.deposit_uuid).toBeNull();

    for (const [i, uuid] of uuids.entries()) {
      const deposit = (await site.v1.getDeposit({ path: { uuid: uuid! } })).body.data;
      expect(deposit).toMatchObject({
        status: 'paid', isFinal: true, amount: null, receivedAmount: amounts[i], orderId: 'user-1', address: sa.address, memo: sa.memo,
        staticAddress: { uuid: sa.uuid, orderId: 'user-1' }, transaction: { hash: txs[i]!.hash },
      });
    }
    expect((await site.v1.getStaticAddress({ path: { uuid: sa.uuid } })).body.data.paymentsCount).toBe(3);

    const paid = await inbox('deposit.paid');
    const swept = await inbox('deposit.swept');
    expect(paid).toHaveLength(3);
    expect(swept).toHaveLength(3);
    for (const hook of [...paid, ...swept]) {
      expect(hook.signature_valid).toBe(true);
      expect(verifyWebhookSignature(hook.body, hook.headers['x-signature'] ?? '', site.webhookSecret)).toBe(true);
      const body = JSON.parse(hook.body) as { type: 'deposit.paid' | 'deposit.swept'; data: { deposit: { staticAddress: unknown } } };
      const validate = webhookValidators[body.type];
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      expect(body.data.deposit.staticAddress).toEqual({ uuid: sa.uuid, orderId: 'user-1' });
    }
    const sweeps = swept.map((hook) => (JSON.parse(hook.body) as { data: { deposit: { uuid: string; paidAt: string }; sweep: { txHash: string; amount: string; toAddress: string; sweptAt: string } } }).data);
    expect(sweeps.map((s) => s.deposit.uuid).sort()).toEqual([...uuids].sort());
    for (const { deposit, sweep } of sweeps) {
      expect(sweep.txHash).toMatch(/^[0-9A-F]{64}$/);
      expect(sweep.toAddress).toMatch(/^r/);
      expect(sweep.toAddress).not.toBe(sa.address);
      expect(sweep.sweptAt).toBe(deposit.paidAt);
      expect(sweep.amount).toBe(amounts[uuids.indexOf(deposit.uuid)]);
    }
    expect(new Set(sweeps.map((s) => s.sweep.toAddress)).size).toBe(1);
  });

  it('a payment waits for its confirmations like any deposit (XLM)', async () => {
    const site = await createSite();
    const sa = (await site.v1.createStaticAddress({ body: { orderId: 'user-x', asset: 'XLM' } })).body.data;
    expect(sa.memo).toMatch(/^sa-[0-9a-z]{10}$/);
    const tx = await pay(sa, '7', { memo: sa.memo! });
    expect((await site.v1.getDeposit({ path: { uuid: tx.deposit_uuid! } })).body.data.status).toBe('confirming');
    expect(await inbox('deposit.swept')).toHaveLength(0);
    await server.control.addChainConfirmations({ path: { hash: tx.hash }, body: { count: 1 } });
    expect((await site.v1.getDeposit({ path: { uuid: tx.deposit_uuid! } })).body.data.status).toBe('paid');
    expect((await inbox()).map((d) => d.event_type)).toEqual(['deposit.confirming', 'deposit.paid', 'deposit.swept']);
  });

  it('is idempotent by orderId; another asset under the same orderId is 409 IDEMPOTENCY_CONFLICT', async () => {
    const site = await createSite();
    const first = (await site.v1.createStaticAddress({ body: { orderId: 'user-7', asset: 'USDT_TRON' } })).body.data;
    expect(first.memo).toBeNull();
    const again = await site.v1.createStaticAddress({ body: { orderId: 'user-7', asset: 'USDT_TRON' } });
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual(first);
    expect(await failure(site.v1.createStaticAddress({ body: { orderId: 'user-7', asset: 'BTC' } }))).toMatchObject({ status: 409, code: 'IDEMPOTENCY_CONFLICT' });
    expect((await site.v1.getStaticAddressByOrderId({ path: { orderId: 'user-7' } })).body.data).toEqual(first);
    expect(await failure(site.v1.createStaticAddress({ body: { orderId: 'user-8', asset: 'NOPE' } }))).toMatchObject({ status: 422 });
  });

  it('disabled by the operator, it creates no deposit for a payment; enabled again, the next payment is one', async () => {
    const site = await createSite();
    const sa = (await site.v1.createStaticAddress({ body: { orderId: 'user-off', asset: 'USDT_TRON' } })).body.data;
    const disabled = await server.control.forceStaticAddressEvent({ path: { static_address: sa.uuid }, body: { event: 'disable' } });
    expect(disabled.body.result).toMatchObject({ static_address: { uuid: sa.uuid, status: 'disabled' }, transition: { from: 'active', event: 'disable', to: 'disabled' } });
    expect((await site.v1.getStaticAddress({ path: { uuid: sa.uuid } })).body.data.status).toBe('disabled');
    expect((await pay(sa, '15', { confirmations: 20 })).deposit_uuid).toBeNull();
    expect((await site.v1.getStaticAddress({ path: { uuid: sa.uuid } })).body.data.paymentsCount).toBe(0);
    expect(await inbox()).toEqual([]);

    const twice = await failure(server.control.forceStaticAddressEvent({ path: { static_address: sa.uuid }, body: { event: 'disable' } }));
    expect([twice.status, twice.code, twice.details]).toEqual([409, 'invalid_state_transition', { event: ['disable is not allowed from disabled (allowed: enable)'] }]);

    await server.control.forceStaticAddressEvent({ path: { static_address: sa.uuid }, body: { event: 'enable' } });
    const paid = await pay(sa, '16', { confirmations: 20 });
    expect(paid.deposit_uuid).not.toBeNull();
    expect((await site.v1.getStaticAddress({ path: { uuid: sa.uuid } })).body.data).toMatchObject({ status: 'active', paymentsCount: 1 });
    const unknown = await failure(server.control.forceStaticAddressEvent({ path: { static_address: '00000000-0000-4000-8000-000000000000' }, body: { event: 'enable' } }));
    expect([unknown.status, unknown.code]).toEqual([404, 'not_found']);
  });

  it('keeps sites apart: another site\'s static address is 404', async () => {
    const mine = await createSite();
    const theirs = await createSite();
    const sa = (await mine.v1.createStaticAddress({ body: { orderId: 'user-9', asset: 'BTC' } })).body.data;
    expect(await failure(theirs.v1.getStaticAddress({ path: { uuid: sa.uuid } }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await failure(theirs.v1.getStaticAddressByOrderId({ path: { orderId: 'user-9' } }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await failure(theirs.v1.listStaticAddressPayments({ path: { uuid: sa.uuid } }))).toMatchObject({ status: 404 });
    expect((await theirs.v1.listStaticAddresses()).body.data).toEqual([]);
    // The same orderId on another site is another address.
    const theirsToo = (await theirs.v1.createStaticAddress({ body: { orderId: 'user-9', asset: 'ETH' } })).body.data;
    expect(theirsToo.uuid).not.toBe(sa.uuid);
  });

  it('lists addresses and walks the payments with the cursor, newest first, filtered by status', async () => {
    const site = await createSite();
    const sa = (await site.v1.createStaticAddress({ body: { orderId: 'user-L', asset: 'USDT_TRON' } })).body.data;
    await server.control.advanceClock({ body: { seconds: 1 } });
    await site.v1.createStaticAddress({ body: { orderId: 'user-M', asset: 'TRX' } });
    const listed = (await site.v1.listStaticAddresses()).body;
    expect(listed.data.map((a) => a.orderId)).toEqual(['user-M', 'user-L']);
    expect(listed.meta).toMatchObject({ page: 1, total: 2 });
    expect((await site.v1.listStaticAddresses({ query: { status: ['disabled'] } })).body.data).toEqual([]);

    const uuids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      uuids.push((await pay(sa, `${i + 1}`, { confirmations: i === 4 ? 0 : 20 })).deposit_uuid!);
      if (i % 2 === 0) await server.control.advanceClock({ body: { seconds: 1 } });
    }
    const seen: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 10; pages += 1) {
      const { data, meta } = (await site.v1.listStaticAddressPayments({ path: { uuid: sa.uuid }, query: { cursor, perPage: 2 } })).body;
      expect(meta).toMatchObject({ page: null, total: null, perPage: 2 });
      seen.push(...data.map((d) => d.uuid));
      expect(data.every((d) => d.staticAddress?.uuid === sa.uuid)).toBe(true);
      if (!meta.hasMore) break;
      cursor = meta.nextCursor!;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(new Set(uuids));
    const all = (await site.v1.listStaticAddressPayments({ path: { uuid: sa.uuid }, query: { perPage: 100 } })).body;
    expect(all.meta).toMatchObject({ page: 1, total: 5, hasMore: false });
    const created = all.data.map((d) => Date.parse(d.createdAt));
    expect([...created].sort((x, y) => y - x)).toEqual(created);
    const confirming = (await site.v1.listStaticAddressPayments({ path: { uuid: sa.uuid }, query: { status: ['confirming'] } })).body.data;
    expect(confirming.map((d) => d.uuid)).toEqual([uuids[4]]);
    expect((await site.v1.getStaticAddress({ path: { uuid: sa.uuid } })).body.data.paymentsCount).toBe(5);
  });
});
