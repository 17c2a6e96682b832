// The integrator's whole chain over real HTTP through the generated ExchangeV3Client (strict
// mode): payment systems → route → details and capabilities → quote → preflight → create order
// (Idempotency-Key, X-Correlation-Id) → status and actions → confirm → staff process and
// complete, with the order.* webhooks received in the built-in inbox.
import { describe, expect, it } from 'vitest';
import type { CreateOrderRequest, ExchangeRoute, OrderRequisites } from '../../generated/exchange-v3/types.js';
import { failure } from './support/failure.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';
import { force, inbox, onlyEvent, subscribeInbox } from './orders-helpers.js';

let server: TestServer;
useFrozenSandbox({ seed: 2026 }, (started) => {
  server = started;
});

const payoutAddress = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';

async function btcToUsdt(): Promise<ExchangeRoute> {
  const systems = (await server.v3.listPaymentSystems({ query: { 'filter[letter_code]': 'BTC' } })).body.result.payment_systems;
  expect(systems.map((s) => s.codes.letter)).toContain('BTC');
  const route = (await server.v3.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0];
  if (route === undefined) throw new Error('the seeded catalog has no BTC → USDTTRC20 route');
  return route;
}

describe('the exchange chain', () => {
  it('route → quote → preflight → order → status/actions → confirm → processing → completed, with webhooks', async () => {
    await subscribeInbox(server);
    const route = await btcToUsdt();
    const details = (await server.v3.getRouteDetails({ path: { route: route.id } })).body.result;
    const capabilities = (await server.v3.getRouteCapabilities({ path: { route: route.id } })).body.result.capabilities;
    expect(capabilities.requisites?.to).toEqual(['to_address']);

    const amount = (Number(route.limits.min_give) * 2).toFixed(route.from.decimal);
    const quote = (await server.v3.createQuote({ body: { route_id: route.id, amount } })).body.result.quote;
    const requisites: OrderRequisites = { to_address: payoutAddress };
    const body: CreateOrderRequest = { quote_id: quote.id, email: 'alice@example.com', requisites, snapshot_hash: details.snapshot.hash, client_order_id: 'inv-2026-0042' };
    const preflight = (await server.v3.preflightOrder({ body })).body.result.preflight;
    expect(preflight).toMatchObject({ ok: true, errors: {}, verification_required: { identity: false, card: false } });
    expect((await server.v3.listOrders()).body.result.orders).toEqual([]);

    const headers = { 'Idempotency-Key': 'order-2026-11-21-0001', 'X-Correlation-Id': 'checkout-7f3a' };
    const created = await server.v3.createOrder({ body, headers });
    expect(created.status).toBe(201);
    const order = created.body.result.order;
    expect(order).toMatchObject({
      status: 'awaiting_payment',
      route_id: route.id,
      quote_id: quote.id,
      client_order_id: 'inv-2026-0042',
      email: 'alice@example.com',
      amount_in: quote.amount_in,
      amount_out: quote.amount_out,
      currency_in: 'BTC',
      currency_out: 'USDTTRC20',
      rate: quote.rate,
      fee: quote.fee.amount,
      requisites,
      to_requisite: 'TQn9Y2****KcbLSE',
      from_requisite: null,
      correlation_id: 'checkout-7f3a',
      verification: { required: false, status: null },
      completed_at: null,
    });
    expect(order.public_id).toMatch(/^[A-Z0-9]{10}$/);
    expect(order.payment_details).toMatchObject({ amount: quote.amount_in, currency: 'BTC', memo: null, account: null, expires_at: order.expires_at });
    expect(order.payment_details.address).toMatch(/^(bc1q[0-9a-z]{38}|bc1p[0-9a-z]{58}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})$/);

    // The same Idempotency-Key answers with the same order; no second order is made.
    const repeated = await server.v3.createOrder({ body, headers });
    expect(repeated.body.result.order).toEqual(order);
    expect((await server.v3.listOrders()).body.result.orders.map((o) => o.id)).toEqual([order.id]);

    const status = (await server.v3.getOrderStatus({ path: { order: order.public_id } })).body.result.status;
    expect(status).toMatchObject({ status: 'awaiting_payment', is_final: false, expires_at: order.expires_at });
    const actions = (await server.v3.getOrderActions({ path: { order: order.public_id } })).body.result.actions;
    expect(actions.filter((a) => a.allowed).map((a) => `${a.method} ${a.action}`)).toEqual(['POST confirm', 'POST cancel', 'DELETE cancel']);

    const confirmed = await server.v3.confirmOrder({ path: { order: order.tracking_id }, body: { payment_reference: 'f'.repeat(64) }, headers: { 'X-Correlation-Id': 'checkout-7f3a', 'Idempotency-Key': 'confirm-2026-11-21-0001' } });
    expect(confirmed.body.result.order).toMatchObject({ status: 'paid', expires_at: null });
    expect((await server.v3.getOrderActions({ path: { order: order.public_id } })).body.result.actions.every((a) => !a.allowed)).toBe(true);

    expect(await force(server, order.id, ['process', 'complete'])).toBe('completed');
    const done = (await server.v3.getOrder({ path: { order: String(order.id) } })).body.result.order;
    expect(done).toMatchObject({ status: 'completed', completed_at: server.sandbox.clock.now().toISOString(), expires_at: null });

    expect(await onlyEvent(server, 'order.created')).toMatchObject({
      request_id: created.body.meta.request_id,
      correlation_id: 'checkout-7f3a',
      idempotency_key: 'order-2026-11-21-0001',
      data: { order },
    });
    const changes = (await inbox(server, 'order.status_changed')).map((d) => JSON.parse(d.body));
    expect(changes.map((c) => [c.data.previous_status, c.data.status])).toEqual([
      ['awaiting_payment', 'paid'],
      ['paid', 'processing'],
      ['processing', 'completed'],
    ]);
    expect(changes[0]).toMatchObject({ request_id: confirmed.body.meta.request_id, correlation_id: 'checkout-7f3a', idempotency_key: 'confirm-2026-11-21-0001' });
    expect(changes[1]).toMatchObject({ request_id: null, correlation_id: null, idempotency_key: null });
    expect(changes.every((c) => c.resource.type === 'order' && c.resource.id === order.id)).toBe(true);
  });

  it('creates an order from route_id and amount, priced now; a bad body creates nothing', async () => {
    const route = await btcToUsdt();
    const amount = (Number(route.limits.min_give) * 3).toFixed(route.from.decimal);
    const created = await server.v3.createOrder({ body: { route_id: route.id, amount, email: 'bob@example.com', requisites: { to_address: payoutAddress } } });
    expect(created.body.result.order).toMatchObject({ quote_id: null, amount_in: amount, rate: route.rate.course, status: 'awaiting_payment' });

    const tooSmall = await failure(server.v3.createOrder({ body: { route_id: route.id, amount: '0.00000001', email: 'bob@example.com', requisites: { to_address: payoutAddress } } }));
    expect([tooSmall.status, tooSmall.code]).toEqual([422, 'validation_error']);
    expect(tooSmall.details.amount).toBeDefined();
    const noAddress = await failure(server.v3.createOrder({ body: { route_id: route.id, amount, email: 'bob@example.com', requisites: {} } }));
    expect(noAddress.status).toBe(422);
    expect((await server.v3.listOrders()).body.result.orders).toHaveLength(1);
  });

  it('an expired quote gives quote_expired and no order', async () => {
    const route = await btcToUsdt();
    const amount = (Number(route.limits.min_give) * 2).toFixed(route.from.decimal);
    const quote = (await server.v3.createQuote({ body: { route_id: route.id, amount } })).body.result.quote;
    const ttl = (Date.parse(quote.expires_at) - server.sandbox.clock.nowMs()) / 1000;
    await server.control.advanceClock({ body: { seconds: ttl + 1 } });
    const error = await failure(server.v3.createOrder({ body: { quote_id: quote.id, email: 'alice@example.com', requisites: { to_address: payoutAddress } } }));
    expect([error.status, error.code]).toEqual([422, 'quote_expired']);
    expect((await server.v3.listOrders()).body.result.orders).toEqual([]);
  });
});
