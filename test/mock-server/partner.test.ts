// The partner operations over real HTTP through the generated ExchangeV3Client (strict mode):
// the profile and its balance, statistics computed from the client's orders within a period,
// referrals (one per customer e-mail) and referred exchanges from the same orders, the seeded
// payout history, each list with its sort both ways, in page and cursor modes.
import { describe, expect, it } from 'vitest';
import { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import { btcToUsdtOrder } from './support/exchange-order.js';
import { failure } from './support/failure.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
useFrozenSandbox({ seed: 95 }, (started) => {
  server = started;
});

async function newClient(): Promise<ExchangeV3Client> {
  const minted = await server.control.mintToken();
  return new ExchangeV3Client({ baseUrl: server.url, token: minted.body.result.token, retry: false });
}

const cents = (amount: string) => Math.round(Number(amount) * 100);

/** A client with four orders over two hours: two completed (two customers), one cancelled, one unpaid. */
async function partnerWithOrders() {
  const client = await newClient();
  const start = server.sandbox.clock.now();
  // Twenty times the minimum: a few hundred dollars, below the identity-verification threshold.
  const minGive = (await client.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!.limits.min_give;
  const amount = (Number(minGive) * 20).toFixed(8);
  const first = await btcToUsdtOrder(server, client, { amount, email: 'alice@example.com' });
  await server.control.advanceClock({ body: { seconds: 3600 } });
  const middle = server.sandbox.clock.now();
  const second = await btcToUsdtOrder(server, client, { amount, email: 'bob@example.com' });
  const cancelled = await btcToUsdtOrder(server, client, { amount, email: 'Alice@Example.com', events: ['cancel'] });
  await server.control.advanceClock({ body: { seconds: 3600 } });
  const unpaid = await btcToUsdtOrder(server, client, { amount, email: 'carol@example.com', events: [] });
  return { client, start, middle, orders: [first, second, cancelled, unpaid] };
}

describe('partner profile', () => {
  it('every client is a partner; a new one has an empty balance', async () => {
    const client = await newClient();
    const { status, body } = await client.getPartner();
    expect(status).toBe(200);
    expect(body.result.partner).toMatchObject({ status: 'active', commission_percent: expect.any(String), balance: { currency: 'USDT', amount: '0' } });
    expect(body.result.partner.referral_url).toContain(body.result.partner.referral_code);
  });

  it('the balance is what was earned less what is paid out or pending', async () => {
    const partner = (await server.v3.getPartner()).body.result.partner;
    const statistics = (await server.v3.getPartnerStatistics()).body.result.statistics;
    const payouts = (await server.v3.listPartnerPayouts({ query: { per_page: 100 } })).body.result.payouts;
    const pending = payouts.filter((p) => p.status === 'pending').reduce((sum, p) => sum + cents(p.amount), 0);
    expect(pending).toBeGreaterThan(0);
    expect(cents(partner.balance.amount)).toBe(cents(statistics.earned.amount) - cents(statistics.paid_out.amount) - pending);
    expect(cents(partner.balance.amount)).toBeGreaterThan(0);
  });
});

describe('partner statistics', () => {
  it('counts and sums the client’s orders, all time and within a period', async () => {
    const { client, middle, orders } = await partnerWithOrders();
    const all = (await client.getPartnerStatistics()).body.result.statistics;
    expect(all).toMatchObject({ period: { from: null, to: null }, referrals_count: 3, exchanges_count: 4, completed_exchanges_count: 2 });
    const exchanges = (await client.listPartnerExchanges({ query: { per_page: 100 } })).body.result.exchanges;
    expect(cents(all.earned.amount)).toBe(exchanges.reduce((sum, e) => sum + cents(e.commission), 0));
    // The commission is a share of the exchanger's margin: more than nothing, a few percent at most.
    for (const order of orders.filter((o) => o.status === 'completed')) {
      const exchange = exchanges.find((e) => e.order_id === order.id)!;
      expect(Number(exchange.commission)).toBeGreaterThan(0);
      expect(Number(exchange.commission)).toBeLessThan(Number(order.amount_out) * 0.05);
    }
    expect(Number(all.turnover.amount)).toBeGreaterThan(0);

    const later = (await client.getPartnerStatistics({ query: { 'filter[created_from]': middle.toISOString() } })).body.result.statistics;
    expect(later).toMatchObject({ period: { from: middle.toISOString(), to: null }, exchanges_count: 3, completed_exchanges_count: 1, referrals_count: 2 });
    // Both completed orders have the same amount: the period holds half the turnover.
    expect(cents(later.turnover.amount) * 2).toBeCloseTo(cents(all.turnover.amount), -1);
    const earlier = (await client.getPartnerStatistics({ query: { 'filter[created_to]': middle.toISOString() } })).body.result.statistics;
    expect(earlier).toMatchObject({ exchanges_count: 1, completed_exchanges_count: 1, referrals_count: 1 });
    expect(cents(earlier.earned.amount) + cents(later.earned.amount)).toBe(cents(all.earned.amount));
  });

  it('refuses a period that ends before it starts', async () => {
    const now = server.sandbox.clock.now().toISOString();
    const error = await failure(server.v3.getPartnerStatistics({ query: { 'filter[created_from]': now, 'filter[created_to]': now } }));
    expect(error.status).toBe(422);
    expect(error.body).toMatchObject({ error: { code: 'validation_error', details: { 'filter[created_to]': [expect.any(String)] } } });
  });
});

describe('partner lists', () => {
  it('exchanges are the client’s orders, newest first, commission only on completed ones', async () => {
    const { client, orders } = await partnerWithOrders();
    const newest = (await client.listPartnerExchanges()).body.result.exchanges;
    expect(newest.map((e) => e.order_id)).toEqual(orders.map((o) => o.id).reverse());
    for (const exchange of newest) {
      const order = orders.find((o) => o.id === exchange.order_id)!;
      expect(exchange).toMatchObject({ public_id: order.public_id, status: order.status, amount_in: order.amount_in, currency_in: 'BTC', amount_out: order.amount_out, currency_out: 'USDTTRC20', created_at: order.created_at });
      expect(Number(exchange.commission) > 0).toBe(order.status === 'completed');
    }
    expect((await client.listPartnerExchanges({ query: { sort: ['created_at'] } })).body.result.exchanges.map((e) => e.order_id)).toEqual(orders.map((o) => o.id));
    const cursorPage = (await client.listPartnerExchanges({ query: { pagination: 'cursor', per_page: 3 } })).body;
    expect(cursorPage.result.exchanges).toHaveLength(3);
    const meta = cursorPage.meta.pagination;
    if (meta.mode !== 'cursor' || meta.next_cursor === null) throw new Error('expected a next cursor');
    const rest = (await client.listPartnerExchanges({ query: { pagination: 'cursor', cursor: meta.next_cursor, per_page: 3 } })).body.result.exchanges;
    expect([...cursorPage.result.exchanges, ...rest]).toEqual(newest);
    expect((await (await newClient()).listPartnerExchanges()).body.result.exchanges).toEqual([]);
  });

  it('referrals are the distinct customer e-mails, registered at their first order', async () => {
    const { client, orders } = await partnerWithOrders();
    const referrals = (await client.listPartnerReferrals({ query: { sort: ['registered_at'] } })).body.result.referrals;
    expect(referrals.map((r) => r.registered_at)).toEqual([orders[0]!.created_at, orders[1]!.created_at, orders[3]!.created_at]);
    expect(referrals.map((r) => r.exchanges_count)).toEqual([2, 1, 1]);
    expect(Number(referrals[2]!.turnover.amount)).toBe(0);
    expect(Number(referrals[0]!.turnover.amount)).toBeGreaterThan(0);
    const newest = (await client.listPartnerReferrals()).body.result.referrals;
    expect(newest).toEqual([...referrals].reverse());
    const page2 = (await client.listPartnerReferrals({ query: { per_page: 2, page: 2, sort: ['registered_at'] } })).body;
    expect(page2.result.referrals).toEqual(referrals.slice(2));
    expect(page2.meta.pagination).toMatchObject({ mode: 'page', total: 3, last_page: 2 });
  });

  it('payouts: the seeded history, newest first or oldest first, in pages and cursors', async () => {
    const all = (await server.v3.listPartnerPayouts({ query: { per_page: 100 } })).body.result.payouts;
    expect(all.length).toBeGreaterThan(3);
    const times = all.map((p) => Date.parse(p.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const payout of all) expect(payout.paid_at === null).toBe(payout.status !== 'paid');
    const oldest = (await server.v3.listPartnerPayouts({ query: { per_page: 100, sort: ['created_at'] } })).body.result.payouts;
    expect(oldest).toEqual([...all].reverse());
    const walked = [];
    let cursor: string | undefined;
    do {
      const { body } = await server.v3.listPartnerPayouts({ query: { pagination: 'cursor', per_page: 2, ...(cursor ? { cursor } : {}) } });
      walked.push(...body.result.payouts);
      const meta = body.meta.pagination;
      cursor = meta.mode === 'cursor' && meta.next_cursor !== null ? meta.next_cursor : undefined;
    } while (cursor !== undefined);
    expect(walked).toEqual(all);
    expect((await (await newClient()).listPartnerPayouts()).body.result.payouts).toEqual([]);
  });
});
