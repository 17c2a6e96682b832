// The exchanger's reserves are live (over real HTTP, strict mode): a completed order moves them
// (its payout leaves the receive side's reserve, the client's payment joins the give side's), and
// a reserve the control API sets below a route's smallest payout disables the route in its
// capabilities, its listing and the rates file, and refuses quotes on it; a reserve below a
// route's largest payout lowers max_receive and max_give to what it can pay.
import { describe, expect, it } from 'vitest';
import type { ExchangeRoute } from '../../generated/exchange-v3/types.js';
import { addAmounts, compareAmounts } from '../../mock-server/decimal.js';
import { btcToUsdtOrder } from './support/exchange-order.js';
import { failure } from './support/failure.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
useFrozenSandbox({ seed: 73 }, (started) => {
  server = started;
});

async function routeBetween(from: string, to: string): Promise<ExchangeRoute> {
  return (await server.v3.listRoutes({ query: { 'filter[from]': from, 'filter[to]': to } })).body.result.routes[0]!;
}
async function reserveOf(from: string, to: string): Promise<string> {
  const { reserve } = (await routeBetween(from, to)).limits;
  if (reserve === undefined) throw new Error(`the ${from} → ${to} route shows no reserve`);
  return reserve;
}

describe('reserves', () => {
  it('a completed order takes its payout from the receive side and adds its payment to the give side', async () => {
    const usdtBefore = await reserveOf('BTC', 'USDTTRC20');
    const btcBefore = await reserveOf('ETH', 'BTC');
    const order = await btcToUsdtOrder(server, server.v3, { events: ['pay', 'process'] });
    // Nothing moves before the payout is sent.
    expect(await reserveOf('BTC', 'USDTTRC20')).toBe(usdtBefore);
    await server.control.forceOrderEvent({ path: { order: order.public_id }, body: { event: 'complete' } });
    expect(compareAmounts(addAmounts(await reserveOf('BTC', 'USDTTRC20'), order.amount_out), usdtBefore)).toBe(0);
    // Every route paying out USDT on TRON sees it, and every route paying out BTC sees the payment.
    expect(await reserveOf('ETH', 'USDTTRC20')).toBe(await reserveOf('BTC', 'USDTTRC20'));
    expect(compareAmounts(await reserveOf('ETH', 'BTC'), addAmounts(btcBefore, order.amount_in))).toBe(0);
  });

  it('a depleted reserve disables the routes paying out in it: capabilities, listing, rates file and quotes', async () => {
    const route = await routeBetween('BTC', 'USDTTRC20');
    const set = await server.control.setReserve({ path: { payment_system: 'usdttrc20' }, body: { amount: '1' } });
    const reason = "The USDTTRC20 reserve (1) is below the route's minimum payout; it is refilled by staff.";
    expect(set.body.result.payment_system).toEqual({ id: route.to.id, code: 'USDTTRC20', reserve: '1' });
    expect(set.body.result.routes).toContainEqual({ id: route.id, enabled: false, reason });

    const capabilities = (await server.v3.getRouteCapabilities({ path: { route: route.id } })).body.result.capabilities;
    expect(capabilities.status).toEqual({ enabled: false, reason });
    expect(await routeBetween('BTC', 'USDTTRC20')).toMatchObject({ is_enabled: false, status: 0, limits: { reserve: '1' } });
    const rates = await (await fetch(`${server.url}/api/v3/public/rates.xml`)).text();
    expect(rates).not.toMatch(/<from>BTC<\/from><to>USDTTRC20<\/to>/);
    const quote = await failure(server.v3.createQuote({ body: { route_id: route.id, amount: route.limits.min_give } }));
    expect([quote.status, quote.details]).toEqual([422, { route_id: [`names a suspended route: ${reason}`] }]);

    // Refilled to just above the smallest payout: small payouts go again, and the limits shrink to
    // what the reserve can pay, so larger amounts are above them on either side.
    const refill = addAmounts(route.limits.min_receive, '10');
    await server.control.setReserve({ path: { payment_system: 'USDTTRC20' }, body: { amount: refill } });
    const refilled = await routeBetween('BTC', 'USDTTRC20');
    expect(refilled).toMatchObject({ is_enabled: true, limits: { reserve: refill } });
    expect(compareAmounts(refilled.limits.max_receive, refill)).toBeLessThanOrEqual(0);
    expect(compareAmounts(refilled.limits.max_give, route.limits.max_give)).toBeLessThan(0);
    expect((await server.v3.createQuote({ body: { route_id: route.id, amount: route.limits.min_give } })).status).toBe(200);
    const above = await failure(server.v3.createQuote({ body: { route_id: route.id, amount: route.limits.max_give } }));
    expect(above.status).toBe(422);
    expect(above.details.amount?.[0]).toMatch(new RegExp(`above the maximum of ${refilled.limits.max_give} BTC`));
    const payout = await failure(server.v3.createQuote({ body: { route_id: route.id, amount: route.limits.max_receive, amount_side: 'receive' } }));
    expect(payout.details.amount?.[0]).toMatch(new RegExp(`above the maximum of ${refilled.limits.max_receive} USDTTRC20`));
  });

  it('refuses an unknown payment system (404) and an amount that is not a decimal (422)', async () => {
    const unknown = await failure(server.control.setReserve({ path: { payment_system: 'NOPE' }, body: { amount: '1' } }));
    expect([unknown.status, unknown.code]).toEqual([404, 'not_found']);
    const bad = await failure(server.control.setReserve({ path: { payment_system: 'BTC' }, body: { amount: '-1' } }));
    expect([bad.status, bad.code]).toEqual([422, 'validation_error']);
  });
});
