// An OrderRecord as the v3 contract shows it: the Order, its status report with history, its
// client actions (the order machine's client transitions and the operations that fire them, in
// `via`) and the data of its webhook events.
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../../generated/exchange-v3/routes.js';
import type {
  Order,
  OrderAction,
  OrderCreatedWebhookData,
  OrderStatusChangedWebhookData,
  OrderStatusReport,
} from '../../../generated/exchange-v3/types.js';
import { orderMachine } from '../../../generated/machines.js';
import { isTerminal, tryFire } from '../machines/fire.js';
import { orderGuards, orderHistory, paymentExpiresAt, pendingTimer, type OrderStep } from './order-lifecycle.js';
import { amountReceived } from './order-payments.js';
import { needsVerification, trackingId, type OrderRecord } from './order-records.js';

export function presentOrder(order: OrderRecord): Order {
  const { draft } = order;
  return {
    id: order.id,
    public_id: order.publicId,
    tracking_id: trackingId(order),
    status: order.status,
    route_id: draft.routeId,
    quote_id: draft.quoteId,
    client_order_id: draft.clientOrderId,
    email: draft.email,
    amount_in: draft.amountIn,
    amount_out: draft.amountOut,
    currency_in: draft.currencyIn,
    currency_out: draft.currencyOut,
    rate: draft.rate,
    fee: draft.fee,
    from_requisite: draft.fromRequisite,
    to_requisite: draft.toRequisite,
    requisites: { ...draft.requisites },
    payment_details: {
      ...draft.paymentDetails,
      expires_at: paymentExpiresAt(order).toISOString(),
      amount_received: amountReceived(order),
      transactions: order.payments.map((p) => ({
        hash: p.hash,
        amount: p.amount,
        detected_at: p.seenAt.toISOString(),
        confirmed_at: p.confirmedAt?.toISOString() ?? null,
      })),
    },
    verification: { required: needsVerification(order), status: order.verificationStatus },
    correlation_id: order.correlationId,
    expires_at: expiresAt(order),
    created_at: order.createdAt.toISOString(),
    updated_at: order.updatedAt.toISOString(),
    completed_at: order.completedAt?.toISOString() ?? null,
  };
}

/** When the pending timer (the payment window) ends the order; null once it left the state the timer runs in. */
function expiresAt(order: OrderRecord): string | null {
  return pendingTimer(order)?.at.toISOString() ?? null;
}

export function presentStatusReport(order: OrderRecord): OrderStatusReport {
  return {
    status: order.status,
    is_final: isTerminal(orderMachine, order.status),
    expires_at: expiresAt(order),
    history: orderHistory(order).map((entry) => ({ ...entry, at: entry.at.toISOString() })),
  };
}

/** One client action per operation that fires a client event of the machine (its `via`), in the file's order. */
const clientOperations = orderMachine.transitions
  .filter((t) => t.actor === 'client')
  .flatMap((t) => t.via.map((operationId) => ({ event: t.event, operationId })))
  .filter((entry, index, all) => all.findIndex((other) => other.operationId === entry.operationId) === index)
  .map(({ event, operationId }) => {
    const route = exchangeV3Routes.find((r) => r.operationId === operationId);
    if (route === undefined) throw new Error(`the order machine names ${operationId}, which the v3 contract lacks`);
    return { event, method: route.method.toUpperCase(), path: `${exchangeV3RoutesBasePath}${route.path}` };
  });

export function presentActions(order: OrderRecord): OrderAction[] {
  const guards = orderGuards(order);
  return clientOperations.map(({ event, method, path }) => {
    const decision = tryFire(orderMachine, order.status, event, { guards });
    return {
      // The contract's OrderAction enums are the machine's client events and their methods.
      action: event as OrderAction['action'],
      method: method as OrderAction['method'],
      endpoint: path.replace('{order}', order.publicId),
      allowed: decision.ok,
      reason: decision.ok ? null : decision.reason,
    };
  });
}

export function createdEventData(order: OrderRecord): OrderCreatedWebhookData {
  return { order: presentOrder(order) };
}

export function statusChangedEventData(order: OrderRecord, step: OrderStep): OrderStatusChangedWebhookData {
  return { order: presentOrder(order), previous_status: step.transition.from, status: step.transition.to };
}
