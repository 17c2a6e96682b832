// An order's payment address is watched by the simulated chain, as a deposit's is: over real HTTP
// (strict mode), an order created with createOrder is paid by transactions to its
// payment_details.address once they are confirmed. Enough (or more) fires the order machine's
// pay, less fires pay_short (error) once every transaction seen is confirmed; a payment seen in
// time stops the payment window; several transactions add up; a memo network needs the memo; a
// payment after expiry is only recorded.
// Each change emits order.status_changed, read from the built-in inbox.
import { describe, expect, it } from 'vitest';
import type { Order } from '../../generated/exchange-v3/types.js';
import { orderMachine } from '../../generated/machines.js';
import { addAmounts, compareAmounts } from '../../mock-server/decimal.js';
import { inbox, subscribeInbox } from './orders-helpers.js';
import { btcAddress, tronAddress } from './support/requisites.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
useFrozenSandbox({ seed: 71 }, (started) => {
  server = started;
});

/** A new order paying `from` (a rates-file code) for USDT on TRON, at the route's minimum, created over HTTP. */
async function orderFrom(from: string, to = 'USDTTRC20', payout: Record<string, string> = { to_address: tronAddress }): Promise<Order> {
  const route = (await server.v3.listRoutes({ query: { 'filter[from]': from, 'filter[to]': to } })).body.result.routes[0]!;
  const created = await server.v3.createOrder({ body: { route_id: route.id, amount: route.limits.min_give, email: 'alice@example.com', requisites: payout } });
  return created.body.result.order;
}

/** Sends `amount` to the order's payment address (with its memo), with `confirmations`. */
async function pay(order: Order, amount: string, confirmations = 0, memo = order.payment_details.memo) {
  const { network, address } = order.payment_details;
  const body = { network: network!, address: address!, amount, confirmations, ...(memo === null ? {} : { memo }) };
  return (await server.control.injectChainTransaction({ body })).body.result;
}

const read = async (order: Order) => (await server.v3.getExchangeOrder({ path: { order: order.public_id } })).body.result.order;

/** The order.status_changed webhooks of the order that reached the inbox: [previous_status, status]. */
async function statusChanges(order: Order): Promise<string[][]> {
  const bodies = (await inbox(server, 'order.status_changed')).map((d) => JSON.parse(d.body) as { data: { order: { id: number }; previous_status: string; status: string } });
  return bodies.filter((b) => b.data.order.id === order.id).map((b) => [b.data.previous_status, b.data.status]);
}

describe('paying an order on the simulated chain', () => {
  it('pays it once the transaction is confirmed; the payment seen in time stops the window', async () => {
    await subscribeInbox(server);
    const order = await orderFrom('BTC');
    expect(order.payment_details).toMatchObject({ network: 'BTC', amount_received: '0', transactions: [] });
    // Paid a minute before the window ends (a BTC block comes every ten minutes).
    const window = orderMachine.timers.payment_window!.seconds!;
    await server.control.advanceClock({ body: { seconds: window - 60 } });
    const tx = await pay(order, order.amount_in);
    expect(tx).toMatchObject({ order_id: order.id, deposit_uuid: null, confirmations: 0 });

    const seen = await read(order);
    expect(seen).toMatchObject({ status: 'awaiting_payment', expires_at: null });
    expect(seen.payment_details).toMatchObject({ amount_received: order.amount_in, transactions: [{ hash: tx.hash, amount: order.amount_in, confirmed_at: null }] });
    // The window's end passes: the payment was seen in time, so the order waits for its confirmations.
    await server.control.advanceClock({ body: { seconds: 120 } });
    expect((await read(order)).status).toBe('awaiting_payment');

    await server.control.addChainConfirmations({ path: { hash: tx.hash }, body: { count: tx.required_confirmations } });
    const paid = await read(order);
    expect(paid.status).toBe('paid');
    expect(paid.payment_details.transactions[0]!.confirmed_at).not.toBeNull();
    expect(await statusChanges(order)).toEqual([['awaiting_payment', 'paid']]);
    const history = (await server.v3.getOrderStatus({ path: { order: order.public_id } })).body.result.status.history;
    expect(history.at(-1)).toMatchObject({ from: 'awaiting_payment', event: 'pay', to: 'paid', actor: 'system' });
  });

  it('pays it when several transactions add up to amount_in, once all are confirmed', async () => {
    const order = await orderFrom('LTC');
    const half = (Number(order.amount_in) / 2).toFixed(8);
    const rest = (Number(order.amount_in) - Number(half)).toFixed(8);
    expect(compareAmounts(addAmounts(half, rest), order.amount_in)).toBe(0);
    // Both are seen before either is confirmed: the sum decides once both are.
    const first = await pay(order, half);
    await pay(order, rest);
    expect((await read(order)).status).toBe('awaiting_payment');
    await server.control.advanceClock({ body: { seconds: first.required_confirmations * 150 } });
    const paid = await read(order);
    expect(paid.status).toBe('paid');
    expect(paid.payment_details.amount_received).toBe(order.amount_in);
    expect(paid.payment_details.transactions[0]!.hash).toBe(first.hash);
  });

  it('shows the payments added up in the form of any amount: 0.004 and 0.006 received are 0.01', async () => {
    const order = await orderFrom('BTC');
    await pay(order, '0.004');
    await pay(order, '0.006');
    expect((await read(order)).payment_details.amount_received).toBe('0.01');
  });

  it('pays it on an overpayment, the excess shown as received', async () => {
    const order = await orderFrom('BTC');
    await pay(order, addAmounts(order.amount_in, '0.001'), 100);
    const paid = await read(order);
    expect(paid.status).toBe('paid');
    expect(compareAmounts(paid.payment_details.amount_received, order.amount_in)).toBeGreaterThan(0);
  });

  it('sends it to error on an underpayment; a later top-up is recorded and leaves it to staff', async () => {
    await subscribeInbox(server);
    const order = await orderFrom('BTC');
    await pay(order, '0.00001', 100);
    expect((await read(order)).status).toBe('error');
    expect(await statusChanges(order)).toEqual([['awaiting_payment', 'error']]);
    const history = (await server.v3.getOrderStatus({ path: { order: order.public_id } })).body.result.status.history;
    expect(history.at(-1)).toMatchObject({ event: 'pay_short', to: 'error', actor: 'system' });
    await pay(order, order.amount_in, 100);
    const after = await read(order);
    expect(after.status).toBe('error');
    expect(after.payment_details.transactions).toHaveLength(2);
  });

  it('on a memo network only a payment with the memo pays it', async () => {
    const order = await orderFrom('XRP', 'BTC', { to_address: btcAddress });
    expect(order.payment_details.memo).not.toBeNull();
    expect((await pay(order, order.amount_in, 100, null)).order_id).toBeNull();
    expect((await pay(order, order.amount_in, 100, `${order.payment_details.memo}9`)).order_id).toBeNull();
    expect((await read(order)).status).toBe('awaiting_payment');
    expect((await pay(order, order.amount_in, 100)).order_id).toBe(order.id);
    expect((await read(order)).status).toBe('paid');
  });

  it('an order that expired before the payment arrived stays expired, the payment recorded', async () => {
    const order = await orderFrom('BTC');
    await server.control.advanceClock({ body: { seconds: orderMachine.timers.payment_window!.seconds! } });
    expect((await pay(order, order.amount_in, 100)).order_id).toBe(order.id);
    const late = await read(order);
    expect(late.status).toBe('expired');
    expect(late.payment_details.amount_received).toBe(order.amount_in);
  });

  it('a fiat give side has no address to pay', async () => {
    const order = await orderFrom('PMUSD', 'BTC', { from_account: 'U1234567', to_address: btcAddress });
    expect(order.payment_details).toMatchObject({ network: null, address: null, amount_received: '0', transactions: [] });
  });
});
