// Proves that the order suites' behaviour covers the whole order machine: each scenario below
// drives orders over HTTP (client operations, the control API, the simulated chain, the virtual
// clock, a decided verification) and records the (from, event, to) of every transition the orders' status
// history shows; the last test compares them with every transition of
// contracts/machines/order.yaml (generated/machines.ts) and fails on any that was not taken.
import { describe, expect, it } from 'vitest';
import { orderMachine } from '../../generated/machines.js';
import type { Order } from '../../generated/exchange-v3/types.js';
import { force, placeOrder } from './orders-helpers.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
useFrozenSandbox({ seed: 31 }, (started) => {
  server = started;
});

const taken = new Set<string>();
const key = (from: string | null, event: string, to: string) => `${from} --${event}--> ${to}`;

/** Records the transitions of the order's history as GET /status shows them; returns its status. */
async function record(order: Order): Promise<string> {
  const status = (await server.v3.getOrderStatus({ path: { order: order.public_id } })).body.result.status;
  for (const entry of status.history) if (entry.from !== null) taken.add(key(entry.from, entry.event, entry.to));
  return status.status;
}

/** Decides the order's verification as EX-FILES does when staff review it. */
async function decideVerification(order: Order, decision: 'approved' | 'rejected'): Promise<void> {
  const service = server.sandbox.services.orders;
  service.verificationChanged(service.findAny(order.public_id)!, decision);
  await service.flush();
}

describe('order machine coverage', () => {
  it('client: confirm, then staff process and complete', async () => {
    const order = await placeOrder(server);
    await server.v3.confirmOrder({ path: { order: order.public_id } });
    await force(server, order.id, ['process', 'complete']);
    expect(await record(order)).toBe('completed');
  });

  it('client: cancel by POST and by DELETE', async () => {
    const posted = await placeOrder(server);
    const deleted = await placeOrder(server);
    await server.v3.cancelOrder({ path: { order: posted.public_id } });
    await server.v3.deleteOrder({ path: { order: deleted.public_id } });
    expect([await record(posted), await record(deleted)]).toEqual(['cancelled', 'cancelled']);
  });

  it('clock: the payment window expires an unpaid order', async () => {
    const order = await placeOrder(server);
    await server.control.advanceClock({ body: { seconds: orderMachine.timers.payment_window!.seconds! } });
    expect(await record(order)).toBe('expired');
  });

  it('system: payment seen, held for verification, approved, payout fails, retried, completed', async () => {
    const order = await placeOrder(server, { verificationRequired: { identity: true, card: false } });
    await force(server, order.id, ['pay']);
    await decideVerification(order, 'approved');
    await force(server, order.id, ['fail', 'process', 'complete']);
    expect(await record(order)).toBe('completed');
  });

  it('system: a rejected verification ends in error, refunded by staff', async () => {
    const order = await placeOrder(server, { verificationRequired: { identity: false, card: true } });
    await force(server, order.id, ['pay']);
    await decideVerification(order, 'rejected');
    await force(server, order.id, ['refund']);
    expect(await record(order)).toBe('refunded');
  });

  it('chain: a confirmed payment covering amount_in pays the order; one falling short sends it to error', async () => {
    const paidInFull = await placeOrder(server);
    const { network, address } = paidInFull.payment_details;
    await server.control.injectChainTransaction({ body: { network: network!, address: address!, amount: paidInFull.amount_in, confirmations: 100 } });
    expect(await record(paidInFull)).toBe('paid');

    await server.control.resetSandbox();
    const short = await placeOrder(server);
    await server.control.injectChainTransaction({ body: { network: network!, address: address!, amount: '0.001', confirmations: 100 } });
    expect(await record(short)).toBe('error');
  });

  it('staff: a payment that is not found fails a paid order', async () => {
    const order = await placeOrder(server);
    await force(server, order.id, ['pay', 'fail']);
    expect(await record(order)).toBe('error');
  });

  it('exercises every transition of contracts/machines/order.yaml', () => {
    const declared = orderMachine.transitions.map((t) => key(t.from, t.event, t.to));
    expect(declared.filter((t) => !taken.has(t))).toEqual([]);
    // Nothing happened that the machine does not declare.
    expect([...taken].filter((t) => !declared.includes(t))).toEqual([]);
  });
});
