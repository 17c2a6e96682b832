// Quotes over real HTTP through the generated ExchangeV3Client (strict mode): pricing on the give
// and the receive side rounded to each side's precision (a receive amount finer than it refused),
// the fee, the route's limits (422 with details), the snapshot hash, and expiry on the virtual clock.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ExchangeRoute } from '../../generated/exchange-v3/types.js';
import { failure } from './support/failure.js';
import { tronAddress } from './support/requisites.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
useFrozenSandbox({ seed: 92 }, (started) => {
  server = started;
});

let btcUsdt: ExchangeRoute;
beforeEach(async () => {
  btcUsdt = (await server.v3.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!;
});

const decimals = (amount: string) => amount.split('.')[1]?.length ?? 0;
/** One unit of the last place at `places` decimals. */
const unit = (places: number) => 10 ** -places;

describe('createQuote', () => {
  it('prices the give side: amount_in rounded down to its precision, the fee deducted from the payout', async () => {
    const { status, body } = await server.v3.createQuote({ body: { route_id: btcUsdt.id, amount: '0.01234567891' } });
    expect(status).toBe(200);
    const quote = body.result.quote;
    expect(quote).toMatchObject({ route_id: btcUsdt.id, amount_side: 'give', amount_in: '0.01234567', currency_in: 'BTC', currency_out: 'USDTTRC20', rate: btcUsdt.rate.course, rate_type: btcUsdt.rate.type });
    expect(quote.fee).toEqual({ amount: expect.any(String), currency: 'USDTTRC20', percent: btcUsdt.features!.fee_percent });
    expect(decimals(quote.amount_out)).toBeLessThanOrEqual(btcUsdt.to.decimal);
    expect(decimals(quote.fee.amount)).toBeLessThanOrEqual(btcUsdt.to.decimal);
    const gross = Number(quote.amount_in) * Number(quote.rate);
    expect(Math.abs(Number(quote.fee.amount) - (gross * Number(quote.fee.percent)) / 100)).toBeLessThanOrEqual(unit(btcUsdt.to.decimal));
    expect(Math.abs(Number(quote.amount_out) + Number(quote.fee.amount) - gross)).toBeLessThanOrEqual(unit(btcUsdt.to.decimal));
    expect(Number(quote.fee.amount)).toBeGreaterThan(0);
  });

  it('prices the receive side: amount_out as asked, amount_in rounded up so the payout is covered', async () => {
    const asked = (Number(btcUsdt.limits.min_receive) * 3).toFixed(btcUsdt.to.decimal);
    const { body } = await server.v3.createQuote({ body: { route_id: btcUsdt.id, amount: asked, amount_side: 'receive' } });
    const quote = body.result.quote;
    expect(quote.amount_side).toBe('receive');
    expect(quote.amount_out).toBe(String(Number(asked)));
    expect(decimals(quote.amount_in)).toBeLessThanOrEqual(btcUsdt.from.decimal);
    // Giving amount_in buys at least what was asked, and one unit less would not.
    const back = (await server.v3.createQuote({ body: { route_id: btcUsdt.id, amount: quote.amount_in } })).body.result.quote;
    expect(Number(back.amount_out)).toBeGreaterThanOrEqual(Number(quote.amount_out));
    const less = (Number(quote.amount_in) - unit(btcUsdt.from.decimal)).toFixed(btcUsdt.from.decimal);
    const short = (await server.v3.createQuote({ body: { route_id: btcUsdt.id, amount: less } })).body.result.quote;
    expect(Number(short.amount_out)).toBeLessThan(Number(quote.amount_out));
  });

  it('refuses a receive amount with more decimals than the receive side has, never cutting the payout', async () => {
    const exact = (Number(btcUsdt.limits.min_receive) * 3).toFixed(btcUsdt.to.decimal);
    const tooFine = `${exact}7`;
    const refused = { amount: [`has more than ${btcUsdt.to.decimal} decimals, the precision of USDTTRC20`] };
    const body = { route_id: btcUsdt.id, amount: tooFine, amount_side: 'receive' as const };
    const quote = await failure(server.v3.createQuote({ body }));
    expect([quote.status, quote.code, quote.details]).toEqual([422, 'validation_error', refused]);
    // Preflight and order creation price the amount with the same code.
    const order = { ...body, email: 'alice@example.com', requisites: { to_address: tronAddress } };
    const preflight = (await server.v3.preflightOrder({ body: order })).body.result.preflight;
    expect([preflight.ok, preflight.errors]).toEqual([false, refused]);
    const created = await failure(server.v3.createOrder({ body: order }));
    expect([created.status, created.details]).toEqual([422, refused]);
    // At the receive side's precision the payout is what was asked.
    const quoted = (await server.v3.createQuote({ body: { ...body, amount: exact } })).body.result.quote;
    expect(quoted.amount_out).toBe(String(Number(exact)));
  });

  it('refuses amounts outside the limits with 422 and the limit in details.amount', async () => {
    const cases: [string, 'give' | 'receive', string][] = [
      [(Number(btcUsdt.limits.min_give) / 2).toFixed(8), 'give', btcUsdt.limits.min_give],
      [(Number(btcUsdt.limits.max_give) * 2).toFixed(8), 'give', btcUsdt.limits.max_give],
      [(Number(btcUsdt.limits.max_receive) + 1).toFixed(6), 'receive', btcUsdt.limits.max_receive],
      [(Number(btcUsdt.limits.min_receive) / 2).toFixed(6), 'receive', btcUsdt.limits.min_receive],
    ];
    for (const [amount, side, limit] of cases) {
      const error = await failure(server.v3.createQuote({ body: { route_id: btcUsdt.id, amount, amount_side: side } }));
      expect(error.status, `${side} ${amount}`).toBe(422);
      expect(error.body).toMatchObject({ error: { code: 'validation_error', details: { amount: [expect.stringContaining(limit)] } } });
    }
    const zero = await failure(server.v3.createQuote({ body: { route_id: btcUsdt.id, amount: '0.000000001' } }));
    expect(zero.body).toMatchObject({ error: { code: 'validation_error', details: { amount: [expect.stringContaining('greater than 0')] } } });
    // At the limits themselves the quote is given, on either side (every route: route-limits.test.ts).
    const { min_give, max_give, min_receive, max_receive } = btcUsdt.limits;
    for (const [amount, side] of [[min_give, 'give'], [max_give, 'give'], [min_receive, 'receive'], [max_receive, 'receive']] as const) {
      expect((await server.v3.createQuote({ body: { route_id: btcUsdt.id, amount, amount_side: side } })).status, `${side} ${amount}`).toBe(200);
    }
  });

  it('refuses an unknown or suspended route with 422 on route_id', async () => {
    const suspended = (await server.v3.listRoutes({ query: { 'filter[to]': 'DOGE', per_page: 1 } })).body.result.routes[0]!;
    expect(suspended.is_enabled).toBe(false);
    for (const routeId of [9999, suspended.id]) {
      const error = await failure(server.v3.createQuote({ body: { route_id: routeId, amount: '1' } }));
      expect(error.status).toBe(422);
      expect(error.body).toMatchObject({ error: { code: 'validation_error', details: { route_id: [expect.any(String)] } } });
    }
  });

  it('takes the snapshot hash of the route details, and answers quote_expired once the route changed', async () => {
    const floating = (await server.v3.listRoutes({ query: { per_page: 100 } })).body.result.routes.find((r) => r.rate.type === 'floating' && r.is_enabled)!;
    const { snapshot } = (await server.v3.getRouteDetails({ path: { route: floating.id } })).body.result;
    const amount = floating.limits.min_give;
    const quote = (await server.v3.createQuote({ body: { route_id: floating.id, amount, snapshot_hash: snapshot.hash } })).body.result.quote;
    expect(quote.snapshot.hash).toBe(snapshot.hash);
    expect(quote.rate_type).toBe('floating');

    const ttl = (await server.v3.getRouteCapabilities({ path: { route: floating.id } })).body.result.capabilities.quote_ttl_seconds!;
    // Advance until the floating rate has moved (it moves once per step of a few minutes).
    let moved = false;
    for (let i = 0; i < 20 && !moved; i += 1) {
      await server.control.advanceClock({ body: { seconds: ttl } });
      moved = (await server.v3.getRouteDetails({ path: { route: floating.id } })).body.result.snapshot.hash !== snapshot.hash;
    }
    expect(moved).toBe(true);
    const error = await failure(server.v3.createQuote({ body: { route_id: floating.id, amount, snapshot_hash: snapshot.hash } }));
    expect(error.status).toBe(422);
    expect(error.body).toMatchObject({ error: { code: 'quote_expired', details: { snapshot_hash: [expect.any(String)] } } });
  });

  it('expires after the TTL of the route capabilities, on the virtual clock', async () => {
    const ttl = (await server.v3.getRouteCapabilities({ path: { route: btcUsdt.id } })).body.result.capabilities.quote_ttl_seconds!;
    const quote = (await server.v3.createQuote({ body: { route_id: btcUsdt.id, amount: btcUsdt.limits.min_give } })).body.result.quote;
    expect(quote.created_at).toBe(server.sandbox.clock.now().toISOString());
    expect(Date.parse(quote.expires_at) - Date.parse(quote.created_at)).toBe(ttl * 1000);
    const preflight = async () =>
      (await server.v3.preflightOrder({ body: { quote_id: quote.id, email: 'alice@example.com', requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' } } })).body.result.preflight;
    await server.control.advanceClock({ body: { seconds: ttl - 1 } });
    expect((await preflight()).ok).toBe(true);
    await server.control.advanceClock({ body: { seconds: 1 } });
    const expired = await preflight();
    expect(expired.ok).toBe(false);
    expect(expired.checks.find((c) => c.name === 'quote')).toMatchObject({ passed: false, message: expect.stringContaining('expired') });
  });
});
