// What the exchanger's chain watcher does with the transactions to an order's payment address
// (contracts/machines/order.yaml, events pay and pay_short): it records each one, marks it
// confirmed once the chain says so, and when every one is confirmed tells which event the
// payment fires on an order still awaiting it: pay when together they cover amount_in (an
// overpayment too), pay_short when they fall short. On an order the client already marked paid
// (confirm) a payment that covers the amount makes the machine's payment_received guard hold
// and fires nothing; on any later status it is only recorded.
import { orderMachine, type OrderEvent, type OrderState } from '../../../generated/machines.js';
import { addAmounts, compareAmounts } from '../../decimal.js';
import type { OrderPayment, OrderRecord } from './order-records.js';

/** When the chain confirms a transaction (the instant its required confirmations are, or will be, reached). */
export interface PaymentChain {
  confirmedAtMs(hash: string): number;
}

/** The statuses a payment means something in, and the events it fires from them. */
const AWAITING: OrderState = 'awaiting_payment';
const CLIENT_CONFIRMED: OrderState = 'paid';
const PAY: OrderEvent = 'pay';
const PAY_SHORT: OrderEvent = 'pay_short';
for (const [from, event] of [[AWAITING, PAY], [AWAITING, PAY_SHORT]] as const) {
  if (!orderMachine.transitions.some((t) => t.from === from && t.event === event)) throw new Error(`the order machine lacks ${event} from ${from}`);
}

export function recordPayment(order: OrderRecord, tx: { hash: string; amount: string }, now: Date): void {
  order.payments = [...order.payments, { hash: tx.hash, amount: tx.amount, seenAt: now, confirmedAt: null }];
  order.updatedAt = now;
}

export function amountReceived(order: Pick<OrderRecord, 'payments'>): string {
  return order.payments.reduce((sum, payment) => addAmounts(sum, payment.amount), '0');
}

/** Whether a payment can still change the order: it awaits one, or awaits the exchanger's own sight of it. */
function waitsForPayment(order: OrderRecord): boolean {
  return order.status === AWAITING || (order.status === CLIENT_CONFIRMED && !order.paymentReceived);
}

/** When the last unconfirmed payment is confirmed, while that can still change the order; null otherwise. */
export function paymentsDueAtMs(order: OrderRecord, chain: PaymentChain): number | null {
  const unconfirmed = order.payments.filter((p) => p.confirmedAt === null);
  if (unconfirmed.length === 0 || !waitsForPayment(order)) return null;
  return Math.max(...unconfirmed.map((p) => chain.confirmedAtMs(p.hash)));
}

/** What settling the payments did: whether the record changed, and the event to fire (at the last confirmation). */
export interface PaymentsSettled {
  changed: boolean;
  fire: { event: OrderEvent; at: Date } | null;
}

/**
 * Marks the payments the chain has confirmed by `now`; once all are, the event the payment fires
 * and the instant it fell due (the last confirmation), when it fires one.
 */
export function settlePayments(order: OrderRecord, chain: PaymentChain, now: Date): PaymentsSettled {
  const unchanged: PaymentsSettled = { changed: false, fire: null };
  if (!waitsForPayment(order) || !order.payments.some((p) => p.confirmedAt === null)) return unchanged;
  const confirmed = order.payments.map((p): OrderPayment => {
    const at = p.confirmedAt === null ? chain.confirmedAtMs(p.hash) : null;
    return at !== null && at <= now.getTime() ? { ...p, confirmedAt: new Date(at) } : p;
  });
  if (confirmed.every((p, i) => p === order.payments[i])) return unchanged;
  order.payments = confirmed;
  if (confirmed.some((p) => p.confirmedAt === null)) return { changed: true, fire: null };
  const at = new Date(Math.max(...confirmed.map((p) => p.confirmedAt!.getTime())));
  const covered = compareAmounts(amountReceived(order), order.draft.amountIn) >= 0;
  if (order.status === AWAITING) return { changed: true, fire: { event: covered ? PAY : PAY_SHORT, at } };
  if (covered) {
    order.paymentReceived = true;
    order.updatedAt = new Date(Math.max(at.getTime(), order.updatedAt.getTime()));
  }
  return { changed: true, fire: null };
}
