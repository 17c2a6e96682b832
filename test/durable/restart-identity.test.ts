// A restart on a durable store (a sqlite: file, a postgres:// database) resumes the whole sandbox:
// a mock driven through every kind of record (orders in several statuses, a quote, a review,
// partner payouts, deposits paid, expired and waiting, a static address with its payment, AML
// checks, upload intents and verifications, a webhook endpoint with queued deliveries, minted keys
// and sites) exports the same document after a restart on its file or database as before it, but
// for the instant it was taken at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import { btcToUsdtOrder } from '../mock-server/support/exchange-order.js';
import type { TestServer } from '../mock-server/support/server.js';
import { newSite } from '../mock-server/support/sites.js';
import { uploaded, createIntent } from '../mock-server/uploads-helpers.js';
import { acrossARestart, durableEngines, durablePlace } from './support/durable-server.js';

function withoutTakenAt(state: SandboxState): Omit<SandboxState, 'taken_at'> {
  const { taken_at: _takenAt, ...rest } = state;
  return rest;
}

/** Drives `server` through every kind of record the sandbox keeps. */
async function driveRichSandbox(server: TestServer): Promise<void> {
  await server.control.freezeClock();
  const minted = (await server.control.mintToken()).body.result;
  const hooks = new ExchangeV3Client({ baseUrl: server.url, token: minted.token, retry: false });
  expect((await hooks.createWebhookEndpoint({ body: { name: 'Orders', url: 'http://127.0.0.1:9/hook', events: ['order.created', 'order.status_changed'] } })).status).toBe(201);
  await server.control.advanceClock({ body: { seconds: 600 } });
  await server.control.setReserve({ path: { payment_system: 'ETH' }, body: { amount: '812.5' } });
  const route = (await server.v3.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!;
  await server.v3.createQuote({ body: { route_id: route.id, amount: route.limits.min_give } });
  await btcToUsdtOrder(server, server.v3, { events: [] });
  await btcToUsdtOrder(server, server.v3, { events: ['pay'] });
  await btcToUsdtOrder(server, server.v3, { events: ['cancel'] });
  const completed = await btcToUsdtOrder(server, server.v3);
  await server.v3.createReview({ body: { order: completed.public_id, rating: 4, text: 'Good rate and the payout came quickly.', author_name: 'Bob' } });
  await btcToUsdtOrder(server, hooks, { events: ['pay', 'process'] });

  const site = await newSite(server);
  const deposit = async (orderId: string, asset: string, amount: string, lifetime?: number) =>
    (await site.v1.createDeposit({ body: { order_id: orderId, asset, amount, ...(lifetime === undefined ? {} : { lifetime }) } })).body.data;
  const pay = (to: { network: string; address: string; memo: string | null }, amount: string, confirmations = 0) =>
    server.control.injectChainTransaction({ body: { network: to.network, address: to.address, amount, confirmations, ...(to.memo === null ? {} : { memo: to.memo }) } });
  await deposit('ORD-expired', 'TRX', '50', 300);
  await server.control.advanceClock({ body: { seconds: 301 } });
  const paid = await deposit('ORD-paid', 'USDT_TRON', '150');
  await pay(paid, '150', 20);
  await pay(await deposit('ORD-confirming', 'BTC', '0.0125'), '0.0125');
  await deposit('ORD-waiting', 'XRP', '25');
  const staticAddress = (await site.v1.createStaticAddress({ body: { orderId: 'user-1', asset: 'XLM' } })).body.data;
  await pay(staticAddress, '12.5', 1);
  expect((await site.v1.getDepositAml({ path: { uuid: paid.uuid } })).body.data.amlStatus).toBe('completed');
  await server.control.setAmlAnswer({ body: { address: 'bc1qrestartriskyaddress', score: 81.5, level: 'high', delay_seconds: 600 } });
  await site.v1.createAmlCheck({ body: { currency: 'BTC', network: 'BTC', address: 'bc1qrestartriskyaddress' } });

  const passport = (await uploaded(server.v3, { purpose: 'identity_verification', field_key: 'passport' })).uuid;
  await server.v3.createIdentityVerification({ body: { documents: [{ upload_intent: passport, kind: 'passport' }] } });
  await createIntent(server.v3);
}

describe.each(durableEngines())('a restart on the $name engine', (engine) => {
  let before: SandboxState;
  let after: SandboxState;

  beforeAll(async () => {
    ({ before, after } = await acrossARestart(await durablePlace(engine), { seed: 42 }, driveRichSandbox));
  });
  afterAll(() => engine.cleanUp());

  it('holds every kind of record before the restart', () => {
    expect(new Set(before.exchange.orders.orders.map((o) => o.status))).toEqual(new Set(['awaiting_payment', 'paid', 'cancelled', 'completed', 'processing']));
    expect(before.exchange.quotes.quotes).toHaveLength(1);
    expect(before.exchange.reviews.reviews.length).toBeGreaterThan(0);
    expect(before.exchange.partners.payouts.length).toBeGreaterThan(0);
    expect(new Set(before.deposits.deposits.map((d) => d.status))).toEqual(new Set(['expired', 'paid', 'confirming', 'waiting']));
    expect(before.deposits.staticAddresses).toHaveLength(1);
    expect(before.deposits.depositScreenings.length).toBeGreaterThan(0);
    expect(before.deposits.amlChecks).toHaveLength(1);
    expect(before.files.uploads).toHaveLength(2);
    expect(before.files.verifications).toHaveLength(1);
    expect(before.webhooks.deliveries.length).toBeGreaterThan(0);
    expect(before.accounts.keys).toHaveLength(2);
    expect(before.accounts.sites).toHaveLength(2);
  });

  it('exports the same document after it, the seed taken from the file', () => {
    expect(after.seed).toBe(42);
    expect(withoutTakenAt(after)).toEqual(withoutTakenAt(before));
  });
});
