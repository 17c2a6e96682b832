// listOrders over real HTTP through the generated client: every filter and every sort field of
// the contract (asc and desc), page and cursor modes, and the client scope. The filters and
// sort fields are read from the contract, so one the contract adds fails this suite until it is
// covered here.
import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ListOrdersQuery, Order } from '../../generated/exchange-v3/types.js';
import { listContract } from '../../mock-server/store/list-contract.js';
import { bundledDocument } from '../../mock-server/bundled-contracts.js';
import { exportState, loadState } from '../snapshot/support/state-documents.js';
import { failure } from './support/failure.js';
import { v3Client } from './support/keys.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';
import { force, placeOrder } from './orders-helpers.js';

let server: TestServer;
useFrozenSandbox({ seed: 77 }, (started) => {
  server = started;
});

const card = '4111111111111111';
const payoutCard = '5500000000000004';
let orders: Order[];

beforeEach(async () => {
  const step = () => server.control.advanceClock({ body: { seconds: 10 } });
  const stranger = await server.control.mintToken();
  await placeOrder(server, { currencyIn: 'BTC', amountIn: '0.015', email: 'carol@example.com' }, { clientId: String(stranger.body.result.key.client.id) });
  const a = await placeOrder(server, { currencyIn: 'BTC', currencyOut: 'USDTTRC20', amountIn: '0.015', amountOut: '955.207462', email: 'alice@example.com', requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' } });
  await step();
  const b = await placeOrder(server, { currencyIn: 'ETH', currencyOut: 'BTC', amountIn: '1.5', amountOut: '0.05', email: 'bob@example.com', requisites: { to_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' } }, { raw: { to_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' } });
  await step();
  const c = await placeOrder(
    server,
    { currencyIn: 'CARDUSD', currencyOut: 'BTC', amountIn: '250.00', amountOut: '0.0039', email: 'Alice@Example.com', requisites: { from_card_number: '411111******1111', to_address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' }, fromRequisite: '411111******1111' },
    { raw: { from_card_number: card, to_address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' } },
  );
  await step();
  const d = await placeOrder(server, { currencyIn: 'BTC', currencyOut: 'CARDEUR', amountIn: '0.2', amountOut: '11800.50', email: 'dave@example.com', requisites: { to_card_number: '550000******0004' }, toRequisite: '550000******0004' }, { raw: { to_card_number: payoutCard } });
  await step();
  const e = await placeOrder(server, { currencyIn: 'USDTTRC20', currencyOut: 'BTC', amountIn: '1000', amountOut: '0.0155', email: 'erin@example.com' });
  await step();
  // Statuses (and update times) that differ: a paid, b completed, c cancelled, d waits, e in error.
  await server.v3.confirmOrder({ path: { order: a.public_id } });
  await step();
  await force(server, b.id, ['pay', 'process', 'complete']);
  await step();
  await server.v3.cancelOrder({ path: { order: c.public_id } });
  await force(server, e.id, ['pay', 'fail']);
  const read = async (o: Order) => (await server.v3.getOrder({ path: { order: o.public_id } })).body.result.order;
  orders = [await read(a), await read(b), await read(c), await read(d), await read(e)];
});

async function ids(query: ListOrdersQuery = {}): Promise<number[]> {
  return (await server.v3.listOrders({ query: { per_page: 100, ...query } })).body.result.orders.map((o) => o.id);
}

const idsOf = (...picked: Order[]) => picked.map((o) => o.id);
/** Newest first (the contract's default sort): by created_at, then id, descending. */
const newestFirst = (list: Order[]) => [...list].sort((x, y) => Date.parse(y.created_at) - Date.parse(x.created_at) || y.id - x.id).map((o) => o.id);

describe('listOrders filters', () => {
  it('covers every filter of the contract', async () => {
    const [a, b, c, d, e] = orders as [Order, Order, Order, Order, Order];
    const cases: Record<string, [ListOrdersQuery, number[]]> = {
      status: [{ 'filter[status]': ['paid', 'completed'] }, idsOf(b, a)],
      id: [{ 'filter[id]': [a.id, c.id] }, idsOf(c, a)],
      public_id: [{ 'filter[public_id]': d.public_id }, idsOf(d)],
      tracking_id: [{ 'filter[tracking_id]': e.tracking_id.toUpperCase() }, idsOf(e)],
      email: [{ 'filter[email]': 'ALICE@example.com' }, idsOf(c, a)],
      from_requisite: [{ 'filter[from_requisite]': card }, idsOf(c)],
      to_requisite: [{ 'filter[to_requisite]': payoutCard }, idsOf(d)],
      created_from: [{ 'filter[created_from]': c.created_at }, idsOf(e, d, c)],
      created_to: [{ 'filter[created_to]': b.created_at }, idsOf(b, a)],
      currency: [{ 'filter[currency]': 'ETH' }, idsOf(b)],
      amount_min: [{ 'filter[amount_min]': '1.5' }, idsOf(e, c, b)],
      amount_max: [{ 'filter[amount_max]': '0.2' }, idsOf(d, a)],
    };
    const declared = contractFilters();
    expect(Object.keys(cases).sort()).toEqual(declared.sort());
    for (const [name, [query, expected]] of Object.entries(cases)) {
      expect(await ids(query), name).toEqual(expected);
    }
  });

  it('matches requisites against the full value, never the masked one, and currencies on either side in any case', async () => {
    const [a, b, c, d, e] = orders as [Order, Order, Order, Order, Order];
    expect(await ids({ 'filter[from_requisite]': '411111******1111' })).toEqual([]);
    expect(await ids({ 'filter[to_requisite]': 'TQn9Y2****KcbLSE' })).toEqual([]);
    expect(await ids({ 'filter[to_requisite]': 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' })).toEqual(idsOf(e, a));
    expect(await ids({ 'filter[currency]': 'BTC' })).toEqual(idsOf(e, d, c, b, a));
    expect(await ids({ 'filter[currency]': 'BTC', 'filter[status]': ['awaiting_payment'] })).toEqual(idsOf(d));
    // Codes compare case-insensitively, as the catalog's filter[from] and filter[letter_code] do.
    expect(await ids({ 'filter[currency]': 'btc' })).toEqual(idsOf(e, d, c, b, a));
    expect(await ids({ 'filter[currency]': 'UsdtTrc20' })).toEqual(idsOf(e, a));
  });

  it('exports the SHA-256 of each requisite as sent, and matches them the same once that snapshot is loaded', async () => {
    const [a, , c, d, e] = orders as [Order, Order, Order, Order, Order];
    const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
    const document = await exportState(server);
    const digestsOf = (order: Order) => document.exchange.orders.orders.find((o) => o.id === order.id)!.requisiteDigests;
    expect(digestsOf(c)).toEqual({ from: sha256(card), to: sha256('bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh') });
    expect(digestsOf(d)).toEqual({ from: null, to: sha256(payoutCard) });
    expect(digestsOf(a)).toEqual({ from: null, to: sha256('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE') });
    await loadState(server, document);
    expect(await ids({ 'filter[from_requisite]': card })).toEqual(idsOf(c));
    expect(await ids({ 'filter[to_requisite]': payoutCard })).toEqual(idsOf(d));
    expect(await ids({ 'filter[to_requisite]': 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' })).toEqual(idsOf(e, a));
    expect(await ids({ 'filter[to_requisite]': '550000******0004' })).toEqual([]);
    expect((await exportState(server)).exchange.orders).toEqual(document.exchange.orders);
  });

  it("lists only the caller's orders", async () => {
    const stranger = await server.control.mintToken();
    const client = v3Client(server, stranger.body.result.token);
    expect((await client.listOrders()).body.result.orders).toEqual([]);
    expect(await ids()).toEqual(newestFirst(orders));
  });
});

describe('listOrders sort', () => {
  it('sorts by every field of the contract, both directions, newest first by default', async () => {
    const contract = listContract('v3', 'listOrders');
    expect(await ids()).toEqual(newestFirst(orders));
    expect(contract.sort?.default).toEqual(['-created_at']);
    const keys: Record<string, (o: Order) => number | string | null> = {
      id: (o) => o.id,
      created_at: (o) => Date.parse(o.created_at),
      updated_at: (o) => Date.parse(o.updated_at),
      completed_at: (o) => (o.completed_at === null ? null : Date.parse(o.completed_at)),
      amount_in: (o) => Number(o.amount_in),
      amount_out: (o) => Number(o.amount_out),
      status: (o) => o.status,
    };
    const fields = contract.sort!.allowed.filter((term) => !term.startsWith('-'));
    expect(Object.keys(keys).sort()).toEqual([...fields].sort());
    for (const field of fields) {
      for (const direction of [1, -1] as const) {
        const key = keys[field]!;
        // Nulls first ascending; ties by id in the field's direction.
        const expected = [...orders]
          .sort((x, y) => {
            const kx = key(x);
            const ky = key(y);
            const byValue = kx === ky ? 0 : kx === null ? -1 : ky === null ? 1 : kx < ky ? -1 : 1;
            return direction * (byValue || x.id - y.id);
          })
          .map((o) => o.id);
        const term = direction === 1 ? field : `-${field}`;
        expect(await ids({ sort: [term as never] }), term).toEqual(expected);
      }
    }
    // Several terms: status, then newest first inside a status.
    const [, , c, d] = orders as [Order, Order, Order, Order, Order];
    expect((await ids({ sort: ['status', '-created_at'], 'filter[status]': ['cancelled', 'awaiting_payment'] }))).toEqual(idsOf(d, c));
  });
});

describe('listOrders pagination', () => {
  it('pages in page mode with the meta of the contract', async () => {
    const first = await server.v3.listOrders({ query: { per_page: 2 } });
    expect(first.body.meta.pagination).toEqual({ mode: 'page', current_page: 1, per_page: 2, total: 5, last_page: 3, from: 1, to: 2 });
    const third = await server.v3.listOrders({ query: { per_page: 2, page: 3 } });
    expect(third.body.meta.pagination).toMatchObject({ current_page: 3, from: 5, to: 5 });
    const all = [...first.body.result.orders, ...(await server.v3.listOrders({ query: { per_page: 2, page: 2 } })).body.result.orders, ...third.body.result.orders];
    expect(all.map((o) => o.id)).toEqual(newestFirst(orders));
  });

  it('walks cursor pages to the end, stable when an order is created meanwhile', async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await server.v3.listOrders({ query: { per_page: 2, pagination: 'cursor', sort: ['id'], ...(cursor ? { cursor } : {}) } });
      seen.push(...page.body.result.orders.map((o) => o.id));
      pages += 1;
      if (pages === 1) await placeOrder(server); // a new order sorts after the cursor: it shows up at the end
      const meta = page.body.meta.pagination;
      if (meta.mode !== 'cursor') throw new Error('expected cursor mode');
      if (!meta.has_more) break;
      cursor = meta.next_cursor!;
    }
    expect(seen.slice(0, 5)).toEqual(orders.map((o) => o.id).sort((x, y) => x - y));
    expect(seen).toHaveLength(6);
  });

  it('rejects a cursor it did not issue, and one issued for another sort', async () => {
    expect((await failure(server.v3.listOrders({ query: { cursor: 'not-a-cursor' } }))).code).toBe('validation_error');
    const page = await server.v3.listOrders({ query: { per_page: 1, pagination: 'cursor', sort: ['id'] } });
    const meta = page.body.meta.pagination;
    if (meta.mode !== 'cursor') throw new Error('expected cursor mode');
    const error = await failure(server.v3.listOrders({ query: { cursor: meta.next_cursor!, sort: ['-id'] } }));
    expect([error.status, error.code]).toEqual([422, 'validation_error']);
  });
});

/** The `filter[...]` parameters of listOrders in the bundled contract. */
function contractFilters(): string[] {
  const operation = (bundledDocument('exchange-v3') as { paths: Record<string, Record<string, { operationId?: string; parameters?: { name?: string }[] }>> }).paths['/private/orders']!.get!;
  return (operation.parameters ?? []).flatMap((p) => (/^filter\[(.+)\]$/.exec(p.name ?? '')?.[1] ?? []) as string[]);
}
