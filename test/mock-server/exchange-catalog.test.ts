// The exchange catalog over real HTTP through the generated ExchangeV3Client (strict mode: every
// answer is checked against the contract): payment systems and routes with every filter and
// sort the contract declares, page and cursor walks, one route, its details in the id, pair and
// query forms (a snapshot whose hash follows the route's state on the virtual clock), its
// capabilities, the rates file, and the seed deciding the catalog.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import { orderMachine } from '../../generated/machines.js';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import type { ExchangeRoute, PaymentSystem } from '../../generated/exchange-v3/types.js';
import { floatingStepSeconds } from '../../mock-server/domain/exchange/catalog/route-state.js';
import { failure } from './support/failure.js';
import { startTestServer, useFrozenSandbox, type TestServer } from './support/server.js';

const seed = 91;
let server: TestServer;
useFrozenSandbox({ seed }, (started) => {
  server = started;
});

type RouteQuery = NonNullable<Parameters<ExchangeV3Client['listRoutes']>[0]>['query'];
type SystemQuery = NonNullable<Parameters<ExchangeV3Client['listPaymentSystems']>[0]>['query'];

async function routes(query: RouteQuery = {}, client = server.v3): Promise<ExchangeRoute[]> {
  const found: ExchangeRoute[] = [];
  for (let page = 1; ; page += 1) {
    const { body } = await client.listRoutes({ query: { ...query, per_page: 100, page } });
    found.push(...body.result.routes);
    const meta = body.meta.pagination;
    if (meta.mode !== 'page' || page >= meta.last_page) return found;
  }
}

async function systems(query: SystemQuery = {}, client = server.v3): Promise<PaymentSystem[]> {
  const { body } = await client.listPaymentSystems({ query: { ...query, per_page: 100 } });
  return body.result.payment_systems;
}

const ids = (items: readonly { id: number }[]) => items.map((i) => i.id).sort((a, b) => a - b);

/** The filter selects exactly `expected` of `all`, and that is neither nothing nor everything. */
function expectSelects<T extends { id: number }>(all: readonly T[], got: readonly T[], keep: (item: T) => boolean): void {
  const expected = all.filter(keep);
  expect(expected.length).toBeGreaterThan(0);
  expect(expected.length).toBeLessThan(all.length);
  expect(ids(got)).toEqual(ids(expected));
}

/** Each sort field, ascending and with `-` descending, orders every item by that field. */
async function expectSorts<T extends { id: number }>(all: readonly T[], keys: Record<string, (item: T) => number | string>, list: (sort: string[]) => Promise<T[]>): Promise<void> {
  for (const [field, key] of Object.entries(keys)) {
    for (const term of [field, `-${field}`]) {
      const sorted = await list([term]);
      const values = sorted.map(key);
      const expected = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(values, term).toEqual(term.startsWith('-') ? expected.reverse() : expected);
      expect(ids(sorted)).toEqual(ids(all));
    }
  }
}

function route(all: readonly ExchangeRoute[], from: string, to: string): ExchangeRoute {
  const found = all.find((r) => r.from.code === from && r.to.code === to);
  if (found === undefined) throw new Error(`no route ${from} → ${to}`);
  return found;
}

describe('payment systems', () => {
  let all: PaymentSystem[];
  beforeAll(async () => {
    all = await systems();
  });

  it('lists crypto on several networks, cards, bank transfers and e-money', () => {
    const letters = all.map((s) => s.codes.letter);
    expect(letters).toEqual(expect.arrayContaining(['BTC', 'ETH', 'USDTTRC20', 'USDTERC20', 'LTC', 'XRP', 'TON', 'CARDRUB', 'CARDUSD', 'WIREEUR', 'PMUSD']));
    const usdt = all.filter((s) => s.currency.code === 'USDT');
    expect(new Set(usdt.map((s) => s.codes.network_in))).toEqual(new Set(['TRON', 'ETH']));
    expect(new Set(usdt.map((s) => s.currency.id)).size).toBe(1);
    const xrp = all.find((s) => s.codes.letter === 'XRP')!;
    expect(xrp.form).toMatchObject({ receive: ['to_address', 'to_memo'] });
    const card = all.find((s) => s.codes.letter === 'CARDRUB')!;
    expect(card.codes.network_in).toBe('');
    expect(card.precision.amount_decimal).toBe(2);
  });

  it('links each system to the routes it gives to and receives from', async () => {
    const everyRoute = await routes({ sort: ['id'] });
    for (const system of all) {
      expect(system.routes.give_to).toEqual(everyRoute.filter((r) => r.from.id === system.id).map((r) => ({ route_id: r.id, currency_id: r.to.id })));
      expect(system.routes.receive_from).toEqual(everyRoute.filter((r) => r.to.id === system.id).map((r) => ({ route_id: r.id, currency_id: r.from.id })));
    }
  });

  it('filters by id, payment_id and code_currency_id (comma lists)', async () => {
    const [a, b] = [all[0]!, all[3]!];
    expectSelects(all, await systems({ 'filter[id]': [a.id, b.id] }), (s) => s.id === a.id || s.id === b.id);
    const tether = all.find((s) => s.codes.letter === 'USDTERC20')!;
    expectSelects(all, await systems({ 'filter[payment_id]': [tether.payment.id] }), (s) => s.payment.id === tether.payment.id);
    const rub = all.find((s) => s.codes.letter === 'CARDRUB')!;
    const usd = all.find((s) => s.codes.letter === 'PMUSD')!;
    expectSelects(all, await systems({ 'filter[code_currency_id]': [rub.currency.id, usd.currency.id] }), (s) => [rub.currency.id, usd.currency.id].includes(s.currency.id));
  });

  it('filters by side', async () => {
    expectSelects(all, await systems({ 'filter[side]': 'receive' }), (s) => s.capabilities.can_receive);
    const give = await systems({ 'filter[side]': 'give' });
    expect(ids(give)).toEqual(ids(all.filter((s) => s.capabilities.can_give)));
  });

  it('filters by the other side of a route', async () => {
    const card = all.find((s) => s.codes.letter === 'CARDUSD')!;
    // Systems a route leads to from CARDUSD, and systems with a route to CARDUSD.
    expectSelects(all, await systems({ 'filter[from_currency_id]': [card.id] }), (s) => s.routes.receive_from.some((l) => l.currency_id === card.id));
    expectSelects(all, await systems({ 'filter[to_currency_id]': [card.id] }), (s) => s.routes.give_to.some((l) => l.currency_id === card.id));
  });

  it('filters by currency, letter and short codes and by network', async () => {
    expectSelects(all, await systems({ 'filter[currency_code]': 'usdt' }), (s) => s.currency.code === 'USDT');
    expectSelects(all, await systems({ 'filter[letter_code]': 'USDTTRC20' }), (s) => s.codes.letter === 'USDTTRC20');
    expectSelects(all, await systems({ 'filter[short_code]': 'usdt' }), (s) => s.codes.short === 'usdt');
    expectSelects(all, await systems({ 'filter[network]': 'ETH' }), (s) => s.codes.network_in === 'ETH' || s.codes.network_out === 'ETH');
  });

  it('sorts by sorting, id and name, either way', async () => {
    await expectSorts(all, { sorting: (s) => s.sorting.position!, id: (s) => s.id, name: (s) => s.name }, (sort) => systems({ sort } as SystemQuery));
  });

  it('walks every page and every cursor page', async () => {
    const paged: PaymentSystem[] = [];
    for (let page = 1; page <= 3; page += 1) paged.push(...(await server.v3.listPaymentSystems({ query: { per_page: 6, page } })).body.result.payment_systems);
    expect(paged.map((s) => s.id)).toEqual(all.map((s) => s.id));
    const cursored: PaymentSystem[] = [];
    let cursor: string | undefined;
    do {
      const { body } = await server.v3.listPaymentSystems({ query: { per_page: 5, pagination: 'cursor', ...(cursor ? { cursor } : {}) } });
      cursored.push(...body.result.payment_systems);
      const meta = body.meta.pagination;
      cursor = meta.mode === 'cursor' && meta.next_cursor !== null ? meta.next_cursor : undefined;
    } while (cursor !== undefined);
    expect(cursored.map((s) => s.id)).toEqual(all.map((s) => s.id));
  });
});

describe('routes', () => {
  let all: ExchangeRoute[];
  beforeAll(async () => {
    all = await routes();
  });

  it('has more routes than one page holds, each with limits, a rate and a precision per side', () => {
    expect(all.length).toBeGreaterThan(100);
    for (const r of all) {
      expect(Number(r.limits.min_give)).toBeLessThan(Number(r.limits.max_give));
      expect(Number(r.limits.max_receive)).toBeLessThanOrEqual(Number(r.limits.reserve));
      expect(r.from.decimal).toBeGreaterThanOrEqual(2);
      expect(r.limits.min_give.split('.')[1]?.length ?? 0).toBeLessThanOrEqual(r.from.decimal);
    }
    expect(new Set(all.map((r) => r.rate.type))).toEqual(new Set(['fixed', 'floating']));
    // Realistic prices: a bitcoin buys tens of thousands of USDT.
    expect(Number(route(all, 'BTC', 'USDTTRC20').rate.course)).toBeGreaterThan(50_000);
  });

  it('suspends the routes to a system whose payouts are suspended', () => {
    const suspended = all.filter((r) => !r.is_enabled);
    expect(suspended.length).toBeGreaterThan(0);
    for (const r of suspended) expect(r).toMatchObject({ status: 0, to: { code: 'DOGE' } });
  });

  it('filters by id, from_currency_id and to_currency_id (comma lists)', async () => {
    expectSelects(all, await routes({ 'filter[id]': [all[2]!.id, all[40]!.id] }), (r) => [all[2]!.id, all[40]!.id].includes(r.id));
    const btc = all[0]!.from.id;
    expectSelects(all, await routes({ 'filter[from_currency_id]': [btc] }), (r) => r.from.id === btc);
    const xrp = route(all, 'BTC', 'XRP').to.id;
    expectSelects(all, await routes({ 'filter[to_currency_id]': [btc, xrp] }), (r) => r.to.id === btc || r.to.id === xrp);
  });

  it('filters by the rates-file codes of each side', async () => {
    expectSelects(all, await routes({ 'filter[from]': 'CARDRUB' }), (r) => r.from.code === 'CARDRUB');
    expectSelects(all, await routes({ 'filter[to]': 'usdttrc20' }), (r) => r.to.code === 'USDTTRC20');
    expectSelects(all, await routes({ 'filter[from]': 'BTC', 'filter[to]': 'TON' }), (r) => r.from.code === 'BTC' && r.to.code === 'TON');
  });

  it('sorts by sorting, id and name, either way', async () => {
    await expectSorts(all, { sorting: (r) => r.sorting!.position!, id: (r) => r.id, name: (r) => r.name }, (sort) => routes({ sort } as RouteQuery));
  });

  it('walks pages and cursors over every route once, also with a filter', async () => {
    const cursored: number[] = [];
    let cursor: string | undefined;
    do {
      const { body } = await server.v3.listRoutes({ query: { per_page: 17, pagination: 'cursor', sort: ['-name'], ...(cursor ? { cursor } : {}) } });
      cursored.push(...body.result.routes.map((r) => r.id));
      const meta = body.meta.pagination;
      cursor = meta.mode === 'cursor' && meta.next_cursor !== null ? meta.next_cursor : undefined;
    } while (cursor !== undefined);
    expect(cursored).toEqual((await routes({ sort: ['-name'] })).map((r) => r.id));
    const first = await server.v3.listRoutes({ query: { per_page: 4, page: 2, 'filter[from]': 'ETH' } });
    expect(first.body.meta.pagination).toMatchObject({ mode: 'page', current_page: 2, from: 5, to: 8, total: all.filter((r) => r.from.code === 'ETH').length });
  });

  it('refuses a cursor issued for another sort order', async () => {
    const { body } = await server.v3.listRoutes({ query: { per_page: 3, pagination: 'cursor' } });
    const meta = body.meta.pagination;
    if (meta.mode !== 'cursor' || meta.next_cursor === null) throw new Error('expected a next cursor');
    const error = await failure(server.v3.listRoutes({ query: { pagination: 'cursor', cursor: meta.next_cursor, sort: ['name'] } }));
    expect(error.status).toBe(422);
    expect(error.body).toMatchObject({ error: { code: 'validation_error', details: { cursor: [expect.any(String)] } } });
  });

  it('reads one route, and 404 for an unknown one', async () => {
    const one = all[10]!;
    // The catalog is rebuilt at each test's reset: only its build time differs.
    expect((await server.v3.getRoute({ path: { route: one.id } })).body.result.route).toEqual({ ...one, timestamps: expect.any(Object) });
    const error = await failure(server.v3.getRoute({ path: { route: 9999 } }));
    expect(error.status).toBe(404);
    expect(error.body).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('route details', () => {
  it('agree in the id, pair and query forms', async () => {
    const r = route(await routes(), 'BTC', 'USDTTRC20');
    const byId = (await server.v3.getRouteDetails({ path: { route: r.id } })).body.result;
    const byPair = (await server.v3.getRouteDetailsByPair({ path: { from: r.from.id, to: r.to.id } })).body.result;
    const forms = [
      { route_id: r.id },
      { direction_id: r.id },
      { from_currency_id: r.from.id, to_currency_id: r.to.id },
      { from: 'btc', to: 'USDTTRC20' },
      { route_id: r.id, from: 'BTC', to: 'USDTTRC20' },
    ];
    for (const query of forms) expect((await server.v3.getRouteDetailsByQuery({ query })).body.result, JSON.stringify(query)).toEqual(byId);
    expect(byPair).toEqual(byId);
    expect(byId.route).toEqual(r);
    expect(byId.snapshot).toMatchObject({ version: 'route-snapshot-v1', route_id: r.id, fingerprint: { course: r.rate.course, status: 1 } });
    expect(byId.operation_contract).toEqual({ version: 'operation-contract-v1', route: r, operation: byId.operation, snapshot: byId.snapshot, contract: byId.contract });
  });

  it('name the endpoints of the chain as the contract routes them', async () => {
    const { contract } = (await server.v3.getRouteDetails({ path: { route: 1 } })).body.result;
    const path = (operationId: string) => `${exchangeV3RoutesBasePath}${exchangeV3Routes.find((r) => r.operationId === operationId)!.path}`;
    expect(contract).toEqual({
      quote_endpoint: path('createQuote'),
      preflight_endpoint: path('preflightOrder'),
      order_endpoint: path('createOrder'),
      amount_side: 'give',
      currency_fields: ['currency_in', 'currency_out'],
    });
  });

  it('snapshot on the clock: the hash holds while the route holds and changes when a floating rate moves', async () => {
    const all = await routes();
    const floating = all.find((r) => r.rate.type === 'floating' && r.is_enabled)!;
    const fixed = all.find((r) => r.rate.type === 'fixed' && r.is_enabled)!;
    const read = async (id: number) => (await server.v3.getRouteDetails({ path: { route: id } })).body.result;
    const before = { floating: await read(floating.id), fixed: await read(fixed.id) };
    const now = server.sandbox.clock.now();
    expect(before.fixed.snapshot.generated_at).toBe(now.toISOString());
    expect(Date.parse(before.fixed.snapshot.expires_at)).toBeGreaterThan(now.getTime());

    await server.control.advanceClock({ body: { seconds: 30 } });
    const soon = await read(floating.id);
    expect(soon.snapshot.hash).toBe(before.floating.snapshot.hash);
    expect(Date.parse(soon.snapshot.generated_at) - Date.parse(before.floating.snapshot.generated_at)).toBe(30_000);

    await server.control.advanceClock({ body: { seconds: floatingStepSeconds } });
    const moved = await read(floating.id);
    expect(moved.route.rate.course).not.toBe(before.floating.route.rate.course);
    expect(moved.snapshot.hash).not.toBe(before.floating.snapshot.hash);
    expect(moved.snapshot.fingerprint.course).toBe(moved.route.rate.course);
    expect((await read(fixed.id)).snapshot.hash).toBe(before.fixed.snapshot.hash);
  });

  it('answer a query that names no route or two different ones with 422, an unknown one with 404', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'query'],
      [{ from_currency_id: 1 }, 'to_currency_id'],
      [{ to: 'BTC' }, 'from'],
      [{ route_id: 1, direction_id: 2 }, 'direction_id'],
    ];
    for (const [query, field] of cases) {
      const error = await failure(server.v3.getRouteDetailsByQuery({ query }));
      expect(error.status, JSON.stringify(query)).toBe(422);
      expect(error.body).toMatchObject({ error: { code: 'validation_error', details: { [field]: [expect.any(String)] } } });
    }
    for (const query of [{ route_id: 9999 }, { from: 'BTC', to: 'NOPE' }, { from_currency_id: 9, to_currency_id: 10 }]) {
      expect((await failure(server.v3.getRouteDetailsByQuery({ query }))).status, JSON.stringify(query)).toBe(404);
    }
    expect((await failure(server.v3.getRouteDetailsByPair({ path: { from: 9, to: 10 } }))).status).toBe(404);
    expect((await failure(server.v3.getRouteDetails({ path: { route: 9999 } }))).status).toBe(404);
  });
});

describe('route capabilities', () => {
  it('are the same by id and by pair, and tell what an order on the route needs', async () => {
    const all = await routes();
    const capabilities = async (r: ExchangeRoute) => {
      const byId = (await server.v3.getRouteCapabilities({ path: { route: r.id } })).body.result.capabilities;
      expect((await server.v3.getRouteCapabilitiesByPair({ path: { from: r.from.id, to: r.to.id } })).body.result.capabilities).toEqual(byId);
      return byId;
    };
    const cancellable = [...new Set(orderMachine.transitions.filter((t) => t.event === 'cancel' && t.actor === 'client').map((t) => t.from))];

    const crypto = route(all, 'BTC', 'USDTTRC20');
    expect(await capabilities(crypto)).toEqual({
      version: 'route-capabilities-v1',
      route_id: crypto.id,
      status: { enabled: true, reason: null },
      amount_sides: ['give', 'receive'],
      fixed_rate: crypto.rate.type === 'fixed',
      quote_ttl_seconds: expect.any(Number),
      requires_email: true,
      requires_verification: { identity: false, card: false },
      requisites: { from: [], to: ['to_address'], schema: { type: 'object', required: ['to_address'], additionalProperties: false, properties: { to_address: expect.objectContaining({ type: 'string', pattern: expect.any(String), examples: [expect.any(String)] }) } } },
      cancellable_statuses: cancellable,
    });
    expect(await capabilities(route(all, 'BTC', 'XRP'))).toMatchObject({ requisites: { to: ['to_address', 'to_memo'] } });
    expect(await capabilities(route(all, 'CARDRUB', 'BTC'))).toMatchObject({
      requires_verification: { card: true },
      requisites: { from: ['from_card_number', 'holder_name'], to: ['to_address'] },
    });
    expect(await capabilities(route(all, 'BTC', 'WIREEUR'))).toMatchObject({ requires_verification: { identity: true }, requisites: { to: ['to_account', 'holder_name'] } });
    expect(await capabilities(route(all, 'BTC', 'DOGE'))).toMatchObject({ status: { enabled: false, reason: expect.stringContaining('suspended') } });
    expect((await failure(server.v3.getRouteCapabilitiesByPair({ path: { from: 9, to: 10 } }))).status).toBe(404);
  });
});

describe('rates file', () => {
  /** The <item>s of a well-formed rates file (every tag closed in order, nothing else at the top). */
  function parseRates(xml: string): Record<string, string>[] {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    const body = xml.replace(/^<\?xml[^>]*\?>\s*/, '');
    const stack: string[] = [];
    const items: Record<string, string>[] = [];
    for (const match of body.matchAll(/<(\/?)([a-z]+)>([^<]*)/g)) {
      const [, closing, name, text] = match as unknown as [string, string, string, string];
      if (closing === '') {
        stack.push(name);
        if (name === 'item') items.push({});
        else if (stack.length === 3) items.at(-1)![name] = text;
      } else {
        expect(stack.pop()).toBe(name);
      }
    }
    expect(stack).toEqual([]);
    expect(body.trim().startsWith('<rates>') && body.trim().endsWith('</rates>')).toBe(true);
    return items;
  }

  it('lists every enabled route once with its rate, reserve and limits', async () => {
    const response = await fetch(`${server.url}/api/v3/public/rates.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/xml');
    const items = parseRates(await response.text());
    const enabled = (await routes()).filter((r) => r.is_enabled);
    expect(items.map((i) => `${i.from}>${i.to}`).sort()).toEqual(enabled.map((r) => `${r.from.code}>${r.to.code}`).sort());
    for (const r of enabled) {
      const item = items.find((i) => i.from === r.from.code && i.to === r.to.code)!;
      expect(item.amount).toBe(r.limits.reserve);
      expect(item.minamount).toBe(`${r.limits.min_give} ${r.from.designation}`);
      expect(item.maxamount).toBe(`${r.limits.max_give} ${r.from.designation}`);
      // out/in is the course, whichever way it is written.
      expect(Number(item.out) / Number(item.in)).toBeCloseTo(Number(r.rate.course), 4);
      if (r.rate.type === 'floating') expect(item.param).toContain('floating');
    }
    expect(items.find((i) => i.from === 'CARDRUB')!.param).toContain('cardverify');
  });
});

describe('the seed decides the catalog', () => {
  const stable = (all: ExchangeRoute[]) => all.map(({ timestamps: _ignored, ...rest }) => rest);

  it('same seed, same catalog; another seed, another; reset re-seeds', async () => {
    const twin = await startTestServer({ seed });
    const other = await startTestServer({ seed: seed + 1 });
    try {
      const mine = stable(await routes());
      expect(stable(await routes({}, twin.v3))).toEqual(mine);
      expect(await systems({}, twin.v3)).toEqual(await systems());
      expect(stable(await routes({}, other.v3))).not.toEqual(mine);
      await other.control.resetSandbox({ body: { seed } });
      expect(stable(await routes({}, other.v3))).toEqual(mine);
    } finally {
      await twin.close();
      await other.close();
    }
  });
});
