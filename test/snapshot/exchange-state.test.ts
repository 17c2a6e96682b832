// The exchange part of a sandbox snapshot over real HTTP (strict mode): a sandbox with orders in
// several statuses and of two clients, a quote, a changed reserve, a review and partner payouts is
// exported (GET /__mock/state) and loaded into a fresh mock of another seed (PUT /__mock/state).
// The loaded mock exports the same records, serves them, gives the next order the ids the first
// mock gives it, and still closes a payment window on the clock. A document whose orders do not
// fit is refused with 422 naming the field, and nothing is replaced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import type { Order } from '../../generated/exchange-v3/types.js';
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import { btcToUsdtOrder } from '../mock-server/support/exchange-order.js';
import { failure } from '../mock-server/support/failure.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { exportState, loadState } from './support/state-documents.js';

let original: TestServer;
let loaded: TestServer;

beforeAll(async () => {
  [original, loaded] = await Promise.all([startTestServer({ seed: 41 }), startTestServer({ seed: 5 })]);
  for (const server of [original, loaded]) server.sandbox.stopDispatching();
  await original.control.freezeClock();
});
afterAll(async () => {
  await Promise.all([original?.close(), loaded?.close()]);
});

/** The document as a file holds it. */
async function exportedJson(server: TestServer): Promise<SandboxState> {
  return JSON.parse(JSON.stringify(await exportState(server))) as SandboxState;
}

describe('the exchange part of a snapshot', () => {
  let document: SandboxState;
  let awaiting: Order;
  let completed: Order;
  let otherClients: Order;
  let quoteId: string;

  beforeAll(async () => {
    // Ten minutes in, so floating routes have moved a step.
    await original.control.advanceClock({ body: { seconds: 600 } });
    await original.control.setReserve({ path: { payment_system: 'ETH' }, body: { amount: '812.5' } });
    const route = (await original.v3.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!;
    quoteId = (await original.v3.createQuote({ body: { route_id: route.id, amount: route.limits.min_give } })).body.result.quote.id;
    awaiting = await btcToUsdtOrder(original, original.v3, { events: [] });
    await btcToUsdtOrder(original, original.v3, { events: ['pay'] });
    await btcToUsdtOrder(original, original.v3, { events: ['cancel'] });
    completed = await btcToUsdtOrder(original, original.v3);
    await original.v3.createReview({ body: { order: completed.public_id, rating: 4, text: 'Good rate and the payout came quickly.', author_name: 'Bob' } });
    const other = new ExchangeV3Client({ baseUrl: original.url, token: (await original.control.mintToken()).body.result.token, retry: false });
    otherClients = await btcToUsdtOrder(original, other, { events: ['pay', 'process'] });
    document = await exportedJson(original);
    await loaded.control.importSandboxState({ body: document });
  });

  it('holds every kind of record, and the loaded mock exports the same ones', async () => {
    const { exchange } = document;
    expect(new Set(exchange.orders.orders.map((o) => o.status))).toEqual(new Set(['awaiting_payment', 'paid', 'cancelled', 'completed', 'processing']));
    expect(exchange.quotes.quotes.map((q) => q.id)).toEqual([quoteId]);
    // Priced on a floating rate some steps after the catalog was built: the state to rebuild has drifted.
    expect(exchange.quotes.quotes[0]!.step).toBeGreaterThan(0);
    expect(exchange.catalog.reserves).toContainEqual({ paymentSystemId: expect.any(Number), reserve: '812.5' });
    expect(exchange.reviews.reviews.filter((r) => r.orderPublicId === completed.public_id)).toHaveLength(1);
    expect(exchange.partners.payouts.length).toBeGreaterThan(1);
    expect((await exportState(loaded)).exchange).toEqual(exchange);
  });

  it('serves the loaded orders by id, public id and tracking id, to their own clients', async () => {
    for (const ref of [String(completed.id), completed.public_id, completed.tracking_id]) {
      expect((await loaded.v3.getExchangeOrder({ path: { order: ref } })).body.result.order).toEqual(completed);
    }
    expect((await failure(loaded.v3.getExchangeOrder({ path: { order: otherClients.public_id } }))).status).toBe(404);
  });

  it('shows the changed reserve on the routes paying out in it', async () => {
    const routes = (await loaded.v3.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'ETH' } })).body.result.routes;
    expect(routes.map((r) => r.limits.reserve)).toEqual(['812.5']);
  });

  it('takes an order citing a quote made before the export, priced on the same route state', async () => {
    const body = { quote_id: quoteId, email: 'alice@example.com', requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' } };
    const [before, after] = await Promise.all([original.v3.preflightOrder({ body }), loaded.v3.preflightOrder({ body })]);
    expect(after.body.result.preflight.ok).toBe(true);
    expect(after.body.result.preflight).toEqual(before.body.result.preflight);
  });

  it('gives the next order the ids and payment address the original mock gives it', async () => {
    const [next, nextLoaded] = await Promise.all([btcToUsdtOrder(original, original.v3, { events: [] }), btcToUsdtOrder(loaded, loaded.v3, { events: [] })]);
    expect(nextLoaded.id).toBe(next.id);
    expect(nextLoaded.public_id).toBe(next.public_id);
    expect(nextLoaded.tracking_id).toBe(next.tracking_id);
    expect(nextLoaded.payment_details).toEqual(next.payment_details);
  });

  it('still closes a loaded payment window when the clock passes it', async () => {
    const record = () => loaded.sandbox.services.orders.collection.get(awaiting.id)!;
    expect(record().status).toBe('awaiting_payment');
    const seconds = (Date.parse(awaiting.payment_details.expires_at) - loaded.sandbox.clock.nowMs()) / 1000 + 1;
    await loaded.control.advanceClock({ body: { seconds } });
    // Read from the records, not through a lookup that settles the order: the due timer moved it.
    expect(record().status).toBe('expired');
  });
});

describe('a snapshot whose orders do not fit', () => {
  let document: SandboxState;

  beforeAll(async () => {
    await original.control.resetSandbox();
    await btcToUsdtOrder(original, original.v3, { events: ['pay'] });
    document = await exportedJson(original);
  });

  /** Loads the document `change`d; expects 422 naming `field`, and the loaded mock unchanged. */
  async function expectRefused(change: (state: SandboxState['exchange']) => void, field: string): Promise<string[]> {
    const before = (await exportState(loaded)).exchange;
    const broken = structuredClone(document);
    change(broken.exchange);
    const refused = await failure(loaded.control.importSandboxState({ body: broken }));
    expect(refused.status).toBe(422);
    expect(refused.details).toHaveProperty([field]);
    expect((await exportState(loaded)).exchange).toEqual(before);
    return refused.details[field]!;
  }

  it('refuses an order of a client no key has', async () => {
    await expectRefused((exchange) => {
      exchange.orders.orders[0]!.clientId = '999';
    }, 'exchange.orders.orders.0.clientId');
  });

  it('refuses a requisite digest that is not a SHA-256 in lower-case hex', async () => {
    await expectRefused((exchange) => {
      exchange.orders.orders[0]!.requisiteDigests.to = 'A'.repeat(64);
    }, 'exchange.orders.orders.0.requisiteDigests.to');
  });

  it('refuses an order status that is not a state of the order machine', async () => {
    const reasons = await expectRefused((exchange) => {
      exchange.orders.orders[0]!.status = 'lost';
    }, 'exchange.orders.orders.0.status');
    expect(reasons.join()).toContain('awaiting_payment');
  });

  it('refuses an order history that does not begin with its creation', async () => {
    await expectRefused((exchange) => {
      exchange.orders.orders[0]!.history.shift();
    }, 'exchange.orders.orders.0.history.0.from');
  });

  it('loads a creation unlike the one the mock makes as it is, and exports it back', async () => {
    const changed = structuredClone(document);
    const [creation, paid] = changed.exchange.orders.orders[0]!.history;
    expect([creation?.event, paid?.event]).toEqual(['create', 'pay']);
    creation!.atMs -= 1000;
    await loadState(loaded, changed);
    expect((await exportState(loaded)).exchange.orders).toEqual(changed.exchange.orders);
  });

  it('loads a tracking id in upper case as it is, and shows and exports it so', async () => {
    const changed = structuredClone(document);
    const order = changed.exchange.orders.orders[0]!;
    order.trackingId = order.trackingId.toUpperCase();
    await loadState(loaded, changed);
    expect((await loaded.v3.getExchangeOrder({ path: { order: order.publicId } })).body.result.order.tracking_id).toBe(order.trackingId);
    expect((await exportState(loaded)).exchange.orders).toEqual(changed.exchange.orders);
  });

  it('refuses an order id counter behind its orders, and a review of an order that is not its client’s', async () => {
    await expectRefused((exchange) => {
      exchange.orders.nextId = 1;
    }, 'exchange.orders.nextId');
    await expectRefused((exchange) => {
      exchange.reviews.reviews[0]!.orderPublicId = 'EXNOSUCH01';
    }, 'exchange.reviews.reviews.0.orderPublicId');
  });
});

describe('an order paid on the simulated chain before the export', () => {
  let payer: TestServer;
  let restored: TestServer;
  beforeAll(async () => {
    [payer, restored] = await Promise.all([startTestServer({ seed: 43 }), startTestServer({ seed: 8 })]);
    for (const server of [payer, restored]) server.sandbox.stopDispatching();
    await payer.control.freezeClock();
  });
  afterAll(async () => {
    await Promise.all([payer?.close(), restored?.close()]);
  });

  it('is paid after the load once its transaction confirms, as on the original', async () => {
    const order = await btcToUsdtOrder(payer, payer.v3, { events: [] });
    await payer.control.injectChainTransaction({ body: { network: 'BTC', address: order.payment_details.address!, amount: order.amount_in, confirmations: 0 } });
    const document = await exportedJson(payer);
    expect(document.exchange.orders.orders[0]!.payments).toHaveLength(1);
    expect((await restored.control.importSandboxState({ body: document })).status).toBe(200);
    await Promise.all([payer.control.advanceClock({ body: { seconds: 7200 } }), restored.control.advanceClock({ body: { seconds: 7200 } })]);
    const [there, here] = await Promise.all([payer.v3.getOrder({ path: { order: order.public_id } }), restored.v3.getOrder({ path: { order: order.public_id } })]);
    expect(here.body.result.order.status).not.toBe('awaiting_payment');
    expect(here.body.result.order.status).toBe(there.body.result.order.status);
  });
});
