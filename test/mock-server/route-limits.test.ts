// A route's published limits are what its quotes accept (over real HTTP, strict mode): each
// limit is quoted on its own side, with an amount_in within the give side's limits, and one unit
// of the last decimal past it is refused with that limit in details.amount. On every enabled route
// of the seed, and on a route whose reserve is drained so low that it caps the route.
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError, type ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import type { AmountSide, ExchangeRoute } from '../../generated/exchange-v3/types.js';
import { add, compareAmounts, formatDecimal, parseDecimal, subtract } from '../../mock-server/decimal.js';
import { failure } from './support/failure.js';
import { v3Client } from './support/keys.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
useFrozenSandbox({ seed: 42 }, (started) => {
  server = started;
});

/** A client whose key takes every quote of the walk within one minute of the frozen clock. */
let client: ExchangeV3Client;
beforeEach(async () => {
  const { token } = (await server.control.mintToken({ body: { rate_limit_per_minute: 100_000 } })).body.result;
  client = v3Client(server, token);
});

async function allRoutes(): Promise<ExchangeRoute[]> {
  const routes: ExchangeRoute[] = [];
  for (let page = 1; ; page += 1) {
    const listed = (await client.listRoutes({ query: { page, per_page: 100 } })).body.result.routes;
    routes.push(...listed);
    if (listed.length < 100) return routes;
  }
}

/** `amount` moved by one unit of its side's last decimal. */
function oneUnit(amount: string, decimals: number, direction: 1 | -1): string {
  const unit = { units: 1n, scale: decimals };
  return formatDecimal(direction === 1 ? add(parseDecimal(amount), unit) : subtract(parseDecimal(amount), unit));
}

/** Quotes each limit of the route on its side and one unit past it; returns what went wrong. */
async function limitProblems(route: ExchangeRoute): Promise<string[]> {
  const { limits } = route;
  const bounds: [AmountSide, string, number, 1 | -1][] = [
    ['give', limits.min_give, route.from.decimal, -1],
    ['give', limits.max_give, route.from.decimal, 1],
    ['receive', limits.min_receive, route.to.decimal, -1],
    ['receive', limits.max_receive, route.to.decimal, 1],
  ];
  const problems: string[] = [];
  for (const [side, limit, decimals, outward] of bounds) {
    const at = `route ${route.id} ${side} ${limit}`;
    try {
      const { quote } = (await client.createQuote({ body: { route_id: route.id, amount: limit, amount_side: side } })).body.result;
      if ((side === 'give' ? quote.amount_in : quote.amount_out) !== limit) problems.push(`${at}: quoted ${quote.amount_in} → ${quote.amount_out}`);
      if (compareAmounts(quote.amount_in, limits.min_give) < 0 || compareAmounts(quote.amount_in, limits.max_give) > 0) {
        problems.push(`${at}: amount_in ${quote.amount_in} outside ${limits.min_give}..${limits.max_give}`);
      }
      if (limits.reserve !== undefined && compareAmounts(quote.amount_out, limits.reserve) > 0) problems.push(`${at}: pays ${quote.amount_out} out of ${limits.reserve}`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problems.push(`${at}: ${error.status} ${JSON.stringify(error.details)}`);
    }
    const past = await failure(client.createQuote({ body: { route_id: route.id, amount: oneUnit(limit, decimals, outward), amount_side: side } }));
    if (past.status !== 422 || !(past.details.amount?.[0] ?? '').includes(limit)) problems.push(`${at}: one unit past it answered ${past.status} ${JSON.stringify(past.details)}`);
  }
  return problems;
}

describe('route limits', () => {
  it('every enabled route quotes each of its limits on that side, and refuses one unit past it', async () => {
    const enabled = (await allRoutes()).filter((route) => route.is_enabled);
    expect(enabled.length).toBeGreaterThan(100);
    const problems: string[] = [];
    for (const route of enabled) problems.push(...(await limitProblems(route)));
    expect(problems).toEqual([]);
    // Some 1,200 quotes, one at a time.
  }, 120_000);

  it('a reserve that cannot pay max_give lowers max_give and max_receive to what it can pay, each still quotable', async () => {
    const filter = { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' };
    const before = (await client.listRoutes({ query: filter })).body.result.routes[0]!;
    await server.control.setReserve({ path: { payment_system: 'USDTTRC20' }, body: { amount: '1000' } });
    const drained = (await client.listRoutes({ query: filter })).body.result.routes[0]!;
    expect(drained.is_enabled).toBe(true);
    expect(compareAmounts(drained.limits.max_give, before.limits.max_give)).toBeLessThan(0);
    expect(compareAmounts(drained.limits.max_receive, '1000')).toBeLessThanOrEqual(0);
    expect(await limitProblems(drained)).toEqual([]);
  });
});
