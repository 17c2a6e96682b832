// A flush on a sqlite: file writes only the records the domain services marked as changed. A
// change not marked would be lost by a restart, so this drives a mock on a file with the journal
// audit on (every flush compared with an encoding of the whole sandbox) through every way a
// record changes: requests, the control API's actions, timers run by clock advances, and lazy
// updates on read (a deposit's AML status, a pending AML check, an upload intent that expired);
// then the audit must have found nothing, and a restart must export the same sandbox.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import { btcToUsdtOrder } from '../mock-server/support/exchange-order.js';
import type { TestServer } from '../mock-server/support/server.js';
import { newSite } from '../mock-server/support/sites.js';
import { createIntent, uploaded } from '../mock-server/uploads-helpers.js';
import { acrossARestart, durableEngines, durablePlace } from './support/durable-server.js';

const day = 86_400;

async function driveEveryChange(server: TestServer): Promise<void> {
  const { control, v3 } = server;
  await control.freezeClock();
  const advance = (seconds: number) => control.advanceClock({ body: { seconds } });
  const minted = (await control.mintToken()).body.result;
  const other = new ExchangeV3Client({ baseUrl: server.url, token: minted.token, retry: false });
  await control.setReserve({ path: { payment_system: 'ETH' }, body: { amount: '812.5' } });

  // Quotes: one made now is forgotten a day after it expired (a removal by the timer beat's sweep).
  const route = (await v3.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!;
  await v3.createQuote({ body: { route_id: route.id, amount: route.limits.min_give } });

  // Orders through every status: forced events, client actions, a payment on the chain, a window run out.
  const expiring = await btcToUsdtOrder(server, v3, { events: [] });
  const confirmed = await btcToUsdtOrder(server, v3, { events: [] });
  await v3.confirmOrder({ path: { order: confirmed.public_id }, body: { payment_reference: 'REF-42' } });
  const cancelled = await btcToUsdtOrder(server, v3, { events: [] });
  await v3.cancelOrder({ path: { order: cancelled.public_id }, body: { reason: 'changed my mind' } });
  await btcToUsdtOrder(server, v3, { events: ['pay_short', 'refund'] });
  await btcToUsdtOrder(server, v3, { events: ['pay', 'fail'] });
  const completed = await btcToUsdtOrder(server, v3);
  await btcToUsdtOrder(server, other, { events: ['pay', 'process'] });
  const chainPaid = await btcToUsdtOrder(server, v3, { events: [] });
  const { network, address } = chainPaid.payment_details;
  const tx = (await control.injectChainTransaction({ body: { network: network!, address: address!, amount: chainPaid.amount_in } })).body.result;
  await control.addChainConfirmations({ path: { hash: tx.hash }, body: { count: 20 } });
  await v3.getOrder({ path: { order: chainPaid.public_id } });

  // An order held for its identity verification, released by the reviewer's approval.
  const held = await btcToUsdtOrder(server, v3, { events: ['pay', 'hold_for_verification'] });
  const identityUpload = (kind: 'passport' | 'selfie') => uploaded(v3, { purpose: 'identity_verification', field_key: kind });
  const documents = [
    { upload_intent: (await identityUpload('passport')).uuid, kind: 'passport' as const },
    { upload_intent: (await identityUpload('selfie')).uuid, kind: 'selfie' as const },
  ];
  const forOrder = (await v3.createIdentityVerification({ body: { documents, order: held.public_id } })).body.result.verification;
  await control.reviewVerification({ path: { verification: forOrder.id }, body: { decision: 'request_more_info', reason: 'Blurred.', documents: ['selfie'] } });
  await uploaded(v3, { purpose: 'identity_verification', resource_type: 'verification', resource_id: forOrder.id, field_key: 'selfie' });
  await v3.submitOrderVerifications({ path: { order: held.public_id }, body: { verifications: [forOrder.id] } });
  await control.reviewVerification({ path: { verification: forOrder.id }, body: { decision: 'approve' } });
  const alone = (await v3.createIdentityVerification({ body: { documents: [{ upload_intent: (await identityUpload('passport')).uuid, kind: 'passport' }] } })).body.result.verification;
  await control.reviewVerification({ path: { verification: alone.id }, body: { decision: 'reject', reason: 'Expired document.' } });
  const lapsing = await createIntent(v3);

  // Reviews and partners: a review moderated, a partner account opened by a read.
  const review = (await v3.createReview({ body: { order: completed.public_id, rating: 5, text: 'Fast and exactly as quoted, thank you.', author_name: 'Eve' } })).body.result.review;
  await control.moderateReview({ path: { review: review.id }, body: { decision: 'publish' } });
  await other.getPartner();
  await v3.listPartnerPayouts();

  // Deposits: paid, confirming, expired by a timer, revived by a refresh; screened with a delay.
  const site = await newSite(server);
  const deposit = async (orderId: string, asset: string, amount: string, lifetime?: number) =>
    (await site.v1.createDeposit({ body: { order_id: orderId, asset, amount, ...(lifetime === undefined ? {} : { lifetime }) } })).body.data;
  const pay = async (to: { network: string; address: string; memo: string | null }, amount: string, confirmations = 0, from?: string) =>
    (await control.injectChainTransaction({ body: { network: to.network, address: to.address, amount, confirmations, ...(to.memo === null ? {} : { memo: to.memo }), ...(from === undefined ? {} : { from }) } })).body
      .result;
  // Screened with a delay: pending, completed on a later read, then replaced by a second payment's screening.
  const screened = await deposit('ORD-screened', 'BTC', '0.02');
  await control.setAmlAnswer({ body: { address: 'bc1qmarksscreenedsender', score: 12, level: 'low', delay_seconds: 60 } });
  const screenedTx = await pay(screened, '0.01', 0, 'bc1qmarksscreenedsender');
  await site.v1.getDepositAml({ path: { uuid: screened.uuid } });
  await advance(120);
  await site.v1.getDepositAml({ path: { uuid: screened.uuid } });
  await pay(screened, '0.01');
  await site.v1.getDepositAml({ path: { uuid: screened.uuid } });
  const late = await deposit('ORD-late', 'USDT_TRON', '10', 300);
  await pay(await deposit('ORD-paid', 'USDT_TRON', '150'), '150', 20);
  await deposit('ORD-waiting', 'XRP', '25');
  const staticAddress = (await site.v1.createStaticAddress({ body: { orderId: 'user-1', asset: 'XLM' } })).body.data;
  await pay(staticAddress, '12.5', 1);
  await control.forceStaticAddressEvent({ path: { static_address: staticAddress.uuid }, body: { event: 'disable' } });
  await control.setAmlAnswer({ body: { address: 'bc1qmarksriskyaddress', score: 81.5, level: 'high', delay_seconds: 600 } });
  const check = (await site.v1.createAmlCheck({ body: { currency: 'BTC', network: 'BTC', address: 'bc1qmarksriskyaddress' } })).body.data;

  // Time passes: payment windows and lifetimes end, confirmations accrue, answers become ready.
  await advance(3600 + day);
  await control.addChainConfirmations({ path: { hash: screenedTx.hash }, body: { count: 6 } });
  await pay(late, '10');
  await site.v1.refreshDeposit({ path: { uuid: late.uuid } });
  await site.v1.getDepositAml({ path: { uuid: screened.uuid } });
  await site.v1.getAmlCheck({ path: { uuid: check.uuid } });
  await v3.getUploadIntent({ path: { intent: lapsing.uuid } });
  await v3.getOrder({ path: { order: expiring.public_id } });
  await advance(day);
  await v3.listOrders();
  await pay(await deposit('ORD-confirming', 'BTC', '0.0125'), '0.0125');
}

describe.each(durableEngines())('marked journal writes on the $name engine', (engine) => {
  let before: SandboxState;
  let after: SandboxState;
  let auditReports: unknown[][];

  beforeAll(async () => {
    const errors = vi.spyOn(console, 'error');
    try {
      ({ before, after } = await acrossARestart(await durablePlace(engine), { seed: 7, journalAudit: true }, driveEveryChange));
    } finally {
      auditReports = errors.mock.calls.filter((call) => call.some((part) => String(part).includes('journal audit')));
      errors.mockRestore();
    }
  });
  afterAll(() => engine.cleanUp());

  it('went through every kind of change', () => {
    expect(new Set(before.exchange.orders.orders.map((o) => o.status))).toEqual(
      new Set(['expired', 'paid', 'cancelled', 'refunded', 'error', 'completed', 'processing']),
    );
    expect(before.exchange.quotes.quotes).toEqual([]);
    expect(before.exchange.reviews.reviews.some((r) => r.status === 'published' && r.authorName === 'Eve')).toBe(true);
    expect(before.exchange.partners.accounts).toHaveLength(2);
    expect(new Set(before.deposits.deposits.map((d) => d.status))).toEqual(new Set(['expired', 'paid', 'confirming']));
    expect(before.deposits.depositScreenings.map((s) => s.status)).toContain('completed');
    expect(before.deposits.amlChecks.map((c) => c.status)).toEqual(['completed']);
    expect(before.deposits.staticAddresses.map((a) => a.status)).toEqual(['disabled']);
    expect(new Set(before.files.verifications.map((v) => v.status))).toEqual(new Set(['approved', 'rejected']));
    expect(before.files.uploads.map((u) => u.status)).toContain('expired');
  });

  it('left the journal as the whole sandbox after every flush (the audit found no change unmarked)', () => {
    expect(auditReports).toEqual([]);
  });

  it('resumes the same sandbox after a restart', () => {
    const { taken_at: _before, ...kept } = before;
    const { taken_at: _after, ...resumed } = after;
    expect(resumed).toEqual(kept);
  });
});
