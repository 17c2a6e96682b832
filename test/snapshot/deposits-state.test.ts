// The deposits part of a sandbox snapshot over real HTTP: deposits in several statuses (paid,
// confirming, expired, waiting, a static address's payment), AML screenings, checks and the
// provider's settings survive GET /__mock/state → JSON → PUT into a fresh mock exactly; after the
// load the mock goes on as the original would (the same next uuid, address and hash, an expiry on
// a clock advance with its webhook event, a transaction crediting a restored deposit); a deposit of
// an unknown site or in a status its machine lacks is refused with 422 naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DepositV1Client, createHmacSigner, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import type { Deposit, StaticAddress } from '../../generated/deposit-v1/types.js';
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { newSite, type TestSite } from '../mock-server/support/sites.js';
import { expectRefusedUntouched, exportState, loadState } from './support/state-documents.js';

let source: TestServer;
let target: TestServer;
let site: TestSite;
let exported: SandboxState;
const made: Record<'expired' | 'paid' | 'confirming' | 'waiting' | 'unpaid', Deposit> = {} as never;
let staticAddress: StaticAddress;

/** A v1 client of the site on `server` (a loaded mock knows the site by the same credentials). */
function siteClient(server: TestServer): DepositV1Client {
  const signer = createHmacSigner(depositV1SignatureScheme, { key: site.site.api_key, secret: site.apiSecret }, { now: () => server.sandbox.clock.nowMs() });
  return new DepositV1Client({ baseUrl: server.url, signer, retry: false });
}

async function createDeposit(server: TestServer, orderId: string, asset: string, amount: string, lifetime?: number): Promise<Deposit> {
  const created = await siteClient(server).createDeposit({ body: { order_id: orderId, asset, amount, ...(lifetime === undefined ? {} : { lifetime }) } });
  expect(created.status).toBe(201);
  return created.body.data;
}

async function pay(server: TestServer, to: { network: string; address: string; memo: string | null }, amount: string, confirmations = 0) {
  const body = { network: to.network, address: to.address, amount, confirmations, ...(to.memo === null ? {} : { memo: to.memo }) };
  return (await server.control.injectChainTransaction({ body })).body.result;
}

async function depositOn(server: TestServer, uuid: string): Promise<Deposit> {
  return (await siteClient(server).getDeposit({ path: { uuid } })).body.data;
}

beforeAll(async () => {
  [source, target] = await Promise.all([startTestServer({ seed: 42 }), startTestServer({ seed: 7 })]);
  for (const server of [source, target]) server.sandbox.stopDispatching();
  await source.control.freezeClock();
  site = await newSite(source);

  made.expired = await createDeposit(source, 'ORD-expired', 'TRX', '50', 300);
  await source.control.advanceClock({ body: { seconds: 301 } });
  made.paid = await createDeposit(source, 'ORD-paid', 'USDT_TRON', '150');
  await pay(source, made.paid, '150', 20);
  made.confirming = await createDeposit(source, 'ORD-confirming', 'BTC', '0.0125');
  await pay(source, made.confirming, '0.0125');
  made.waiting = await createDeposit(source, 'ORD-waiting', 'XRP', '25');
  made.unpaid = await createDeposit(source, 'ORD-unpaid', 'USDT_TRON', '10');
  staticAddress = (await site.v1.createStaticAddress({ body: { orderId: 'user-1', asset: 'XLM' } })).body.data;
  await pay(source, staticAddress, '12.5', 1);

  // A deposit's screening, a check pending behind a delayed answer, and one skipped (TON is not screened).
  expect((await site.v1.getDepositAml({ path: { uuid: made.paid.uuid } })).body.data.amlStatus).toBe('completed');
  await source.control.setAmlAnswer({ body: { address: 'bc1qsnapshotriskyaddress', score: 81.5, level: 'high', delay_seconds: 600 } });
  const pending = await site.v1.createAmlCheck({ body: { currency: 'BTC', network: 'BTC', address: 'bc1qsnapshotriskyaddress' } });
  expect(pending.body.data.status).toBe('pending');
  const skipped = await site.v1.createAmlCheck({ body: { currency: 'TON', network: 'TON', address: 'EQAsnapshot' } });
  expect(skipped.body.data.status).toBe('skipped');

  exported = JSON.parse(JSON.stringify(await exportState(source))) as SandboxState;
  await loadState(target, exported);
});

afterAll(async () => {
  await Promise.all([source?.close(), target?.close()]);
});

describe('the deposits part of a snapshot', () => {
  it('holds every record, and a loaded mock exports the same part', async () => {
    const { deposits } = exported;
    expect(Object.fromEntries(deposits.deposits.map((d) => [d.orderId, d.status]))).toEqual({
      'ORD-expired': 'expired',
      'ORD-paid': 'paid',
      'ORD-confirming': 'confirming',
      'ORD-waiting': 'waiting',
      'ORD-unpaid': 'waiting',
      'user-1': 'paid',
    });
    expect(deposits.staticAddresses.map((a) => a.uuid)).toEqual([staticAddress.uuid]);
    expect(deposits.hotWallets.map((w) => w.network)).toEqual(['XLM']);
    // Every view of a deposit with a transaction screens it: the paid, the confirming and the static payment.
    expect(deposits.depositScreenings).toHaveLength(3);
    expect(deposits.depositScreenings.map((s) => s.depositUuid)).toContain(made.paid.uuid);
    expect(deposits.amlChecks.map((c) => c.status)).toEqual(['pending', 'skipped']);
    expect(deposits.amlProvider.answers.map((a) => a.address)).toEqual(['bc1qsnapshotriskyaddress']);
    expect((await exportState(target)).deposits).toEqual(deposits);
  });

  it('shows each deposit and static address as the original does', async () => {
    for (const deposit of Object.values(made)) expect(await depositOn(target, deposit.uuid)).toEqual(await depositOn(source, deposit.uuid));
    const staticOn = async (server: TestServer) => (await siteClient(server).getStaticAddress({ path: { uuid: staticAddress.uuid } })).body.data;
    expect(await staticOn(target)).toMatchObject({ paymentsCount: 1 });
    expect(await staticOn(target)).toEqual(await staticOn(source));
  });

  it('draws the next deposit, static address and transaction as the original does', async () => {
    const [a, b] = await Promise.all([createDeposit(source, 'ORD-next', 'XRP', '3'), createDeposit(target, 'ORD-next', 'XRP', '3')]);
    expect(b).toEqual(a);
    const nextStatic = (server: TestServer) => siteClient(server).createStaticAddress({ body: { orderId: 'user-2', asset: 'BTC' } });
    const [sa, sb] = await Promise.all([nextStatic(source), nextStatic(target)]);
    expect(sb.body.data).toEqual(sa.body.data);
    const [ta, tb] = await Promise.all([pay(source, a, '3'), pay(target, a, '3')]);
    expect(tb).toEqual(ta);
  });

  it('credits a transaction to a restored deposit, and reconciles a restored AML check', async () => {
    const tx = await pay(target, made.unpaid, '10', 20);
    expect(tx.deposit_uuid).toBe(made.unpaid.uuid);
    expect(await depositOn(target, made.unpaid.uuid)).toMatchObject({ status: 'paid', receivedAmount: '10' });
    const checkUuid = exported.deposits.amlChecks[0]!.uuid;
    await target.control.advanceClock({ body: { seconds: 600 } });
    expect((await siteClient(target).getAmlCheck({ path: { uuid: checkUuid } })).body.data).toMatchObject({ status: 'completed', riskScore: 81.5, riskLevel: 'high' });
  });

  it('expires a waiting deposit when the advanced clock reaches its lifetime, with its deposit.expired event', async () => {
    await target.control.advanceClock({ body: { seconds: 3600 } });
    // Before anything reads the deposit: the advance itself expired it, from the restored due queue.
    const events = (await target.control.listInspectorRecords({ path: { kind: 'webhook_events' } })).body.result.items as { type: string; resource: { id: unknown } }[];
    expect(events.filter((e) => e.type === 'deposit.expired').map((e) => e.resource.id)).toContain(made.waiting.uuid);
    expect((await depositOn(target, made.waiting.uuid)).status).toBe('expired');
  });
});

describe('a deposits part that does not fit', () => {
  const firstDeposit = (change: object) => ({
    ...exported,
    deposits: { ...exported.deposits, deposits: [{ ...exported.deposits.deposits[0]!, ...change }, ...exported.deposits.deposits.slice(1)] },
  });

  it('refuses a deposit of an unknown site', async () => {
    await expectRefusedUntouched(target, firstDeposit({ siteId: 999 }), 'deposits.deposits.0.siteId');
  });

  it('refuses a status the deposit machine does not have', async () => {
    await expectRefusedUntouched(target, firstDeposit({ status: 'lost' }), 'deposits.deposits.0.status');
  });

  it('refuses a credited transaction that is not on the chain', async () => {
    const paid = exported.deposits.deposits.findIndex((d) => d.transactionHashes.length > 0);
    const deposits = exported.deposits.deposits.map((d, i) => (i === paid ? { ...d, transactionHashes: ['0xnotonthechain'] } : d));
    await expectRefusedUntouched(target, { ...exported, deposits: { ...exported.deposits, deposits } }, `deposits.deposits.${paid}.transactionHashes.0`);
  });
});
