// simulateOrder over real HTTP through the generated client: the scratch order's transitions and
// webhook events, refused events reported and skipped, guards evaluated on the scratch order,
// the verification hold, bad input, and the rule that a simulation changes no state: no order
// stored or readable, no event or delivery, and the next real order gets exactly the ids and
// payment details it would have got without the simulation.
import { describe, expect, it } from 'vitest';
import type { ExchangeRoute, Order } from '../../generated/exchange-v3/types.js';
import { orderMachine } from '../../generated/machines.js';
import { failure } from './support/failure.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';
import { inbox, subscribeInbox } from './orders-helpers.js';

const seed = 606;
let server: TestServer;
useFrozenSandbox({ seed }, (started) => {
  server = started;
});

async function routeOf(from: string, to: string): Promise<ExchangeRoute> {
  const route = (await server.v3.listRoutes({ query: { 'filter[from]': from, 'filter[to]': to } })).body.result.routes[0];
  if (route === undefined) throw new Error(`the seeded catalog has no ${from} → ${to} route`);
  return route;
}

const amountOf = (route: ExchangeRoute) => (Number(route.limits.min_give) * 2).toFixed(route.from.decimal);

describe('simulateOrder', () => {
  it('runs the happy path by default, with the events a real order would emit', async () => {
    const route = await routeOf('BTC', 'USDTTRC20');
    const { status, body } = await server.v3.simulateOrder({ body: { route_id: route.id, amount: amountOf(route) }, headers: { 'X-Correlation-Id': 'sim-1' } });
    expect(status).toBe(200);
    const simulation = body.result.simulation;
    expect(simulation.transitions).toEqual([
      { from: 'awaiting_payment', event: 'pay', to: 'paid', allowed: true, reason: null },
      { from: 'paid', event: 'process', to: 'processing', allowed: true, reason: null },
      { from: 'processing', event: 'complete', to: 'completed', allowed: true, reason: null },
    ]);
    expect(simulation.final_status).toBe('completed');
    expect(simulation.order).toMatchObject({
      status: 'completed',
      route_id: route.id,
      quote_id: null,
      amount_in: amountOf(route),
      currency_in: 'BTC',
      currency_out: 'USDTTRC20',
      rate: route.rate.course,
      correlation_id: 'sim-1',
      email: server.sandbox.defaultKey.client.email,
      completed_at: server.sandbox.clock.now().toISOString(),
      expires_at: null,
    });
    expect(simulation.order.public_id).toMatch(/^SB[A-Z0-9]{8}$/);
    expect(simulation.events.map((e) => e.type)).toEqual(['order.created', 'order.status_changed', 'order.status_changed', 'order.status_changed']);
    const [created, ...changes] = simulation.events as { type: string; payload: { order: Order; previous_status?: string; status?: string } }[];
    expect(created!.payload.order).toMatchObject({ id: simulation.order.id, status: 'awaiting_payment' });
    expect(changes.map((c) => [c.payload.previous_status, c.payload.status, c.payload.order.status])).toEqual([
      ['awaiting_payment', 'paid', 'paid'],
      ['paid', 'processing', 'processing'],
      ['processing', 'completed', 'completed'],
    ]);
  });

  it('reports an event the status does not allow and skips it; guards hold on the scratch order', async () => {
    const route = await routeOf('BTC', 'USDTTRC20');
    const amount = amountOf(route);
    const skipped = (await server.v3.simulateOrder({ body: { route_id: route.id, amount, events: ['complete', 'pay', 'refund', 'process'] } })).body.result.simulation;
    expect(skipped.transitions.map((t) => [t.event, t.allowed, t.to])).toEqual([
      ['complete', false, null],
      ['pay', true, 'paid'],
      ['refund', false, null],
      ['process', true, 'processing'],
    ]);
    expect(skipped.transitions[0]!.reason).toBe('complete is not allowed from awaiting_payment (allowed: confirm, pay, pay_short, cancel, expire)');
    expect(skipped.final_status).toBe('processing');

    // Confirmed by the client only: the exchanger has not received the payment, so process's guard is closed.
    const guarded = (await server.v3.simulateOrder({ body: { route_id: route.id, amount, events: ['confirm', 'process'] } })).body.result.simulation;
    expect(guarded.transitions[1]).toEqual({
      from: 'paid',
      event: 'process',
      to: null,
      allowed: false,
      reason: `process from paid needs payment_received: ${orderMachine.guards.payment_received}`,
    });
    expect(guarded.events).toHaveLength(2);
  });

  it('holds a scratch order that needs a verification', async () => {
    const route = (await server.v3.listRoutes({ query: { 'filter[from]': 'CARDUSD', per_page: 100 } })).body.result.routes.find((r) => r.is_enabled);
    if (route === undefined) throw new Error('the seeded catalog has no enabled card route');
    const capabilities = (await server.v3.getRouteCapabilities({ path: { route: route.id } })).body.result.capabilities;
    expect(capabilities.requires_verification).toMatchObject({ card: true });
    const simulation = (await server.v3.simulateOrder({ body: { route_id: route.id, amount: amountOf(route) } })).body.result.simulation;
    expect(simulation.transitions.map((t) => [t.event, t.to])).toEqual([
      ['pay', 'paid'],
      ['hold_for_verification', 'verification_hold'],
      ['process', null],
      ['complete', null],
    ]);
    expect(simulation.order.verification).toEqual({ required: true, status: null });
  });

  it('answers 422 for an unknown route and an amount outside the limits', async () => {
    const unknown = await failure(server.v3.simulateOrder({ body: { route_id: 99999, amount: '1' } }));
    expect([unknown.status, unknown.code, Object.keys(unknown.details)]).toEqual([422, 'validation_error', ['route_id']]);
    const route = await routeOf('BTC', 'USDTTRC20');
    const tooBig = await failure(server.v3.simulateOrder({ body: { route_id: route.id, amount: (Number(route.limits.max_give) * 2).toFixed(8) } }));
    expect([tooBig.status, Object.keys(tooBig.details)]).toEqual([422, ['amount']]);
  });

  it('changes no state: nothing stored, nothing emitted, the next real order unchanged', async () => {
    const route = await routeOf('BTC', 'USDTTRC20');
    const orderBody = { route_id: route.id, amount: amountOf(route), email: 'alice@example.com', requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' } };
    // The reset puts the clock back to real time, so only the times may differ.
    const comparable = ({ id, public_id, tracking_id, payment_details: { expires_at: _, ...payment } }: Order) => ({ id, public_id, tracking_id, payment });

    // Without a simulation: the first order of the seed.
    await subscribeInbox(server);
    const expected = comparable((await server.v3.createOrder({ body: orderBody, headers: { 'Idempotency-Key': 'first-order-0001' } })).body.result.order);

    await server.control.resetSandbox({ body: { seed } });
    await server.control.freezeClock();
    await subscribeInbox(server);
    const simulated = [];
    for (const events of [undefined, ['confirm', 'cancel'], ['expire']] as const) {
      simulated.push((await server.v3.simulateOrder({ body: { route_id: route.id, amount: amountOf(route), ...(events ? { events: [...events] } : {}) } })).body.result.simulation.order);
    }
    expect((await server.v3.listOrders()).body.result.orders).toEqual([]);
    expect((await server.v3.listOrders()).body.meta.pagination).toMatchObject({ total: 0 });
    for (const order of simulated) {
      for (const ref of [String(order.id), order.public_id, order.tracking_id]) {
        expect((await failure(server.v3.getOrder({ path: { order: ref } }))).status).toBe(404);
        expect((await failure(server.control.forceOrderEvent({ path: { order: ref }, body: { event: 'pay' } }))).status).toBe(404);
      }
    }
    expect((await server.v3.listWebhookEvents()).body.result.events).toEqual([]);
    expect(await inbox(server)).toEqual([]);

    const after = comparable((await server.v3.createOrder({ body: orderBody, headers: { 'Idempotency-Key': 'first-order-0001' } })).body.result.order);
    expect(after).toEqual(expected);
  });
});
