// The v3 order operations over the sandbox's OrderService: createOrder (checked and priced by
// order-request.ts), the two lookups by id, public_id or tracking_id (scoped to the caller's
// client), the status report and client actions, the client's machine events (confirm, cancel
// and its DELETE form: the event each operation fires is the machine's `via`), and listOrders.
import type { ExchangeV3Handlers } from '../../generated/exchange-v3/routes.js';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import { orderMachine, type OrderEvent } from '../../generated/machines.js';
import { orderFilterMatchers } from '../domain/exchange/order-filters.js';
import { presentActions, presentStatusReport } from '../domain/exchange/order-present.js';
import type { OrderRecord } from '../domain/exchange/order-records.js';
import { checkOrderRequest } from '../domain/exchange/order-request.js';
import { BY_CLIENT } from '../domain/exchange/order-service.js';
import { HttpError } from '../http/http-error.js';
import { v3Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { filterPredicate, listRecords } from '../store/list-records.js';
import { v3ListRequestOf } from './v3-list-request.js';
import { causingRequest, clientOf } from './v3-request.js';

type OrderOperation =
  | 'createOrder' | 'getExchangeOrder' | 'getOrder' | 'getOrderStatus' | 'getOrderActions'
  | 'confirmOrder' | 'cancelOrder' | 'deleteOrder' | 'listOrders';

/** The client event an operation fires: the machine transition that names it in `via`. */
function clientEventOf(operationId: OrderOperation): OrderEvent {
  const transition = orderMachine.transitions.find((t) => t.via.includes(operationId));
  if (transition === undefined) throw new Error(`no transition of the order machine is fired by ${operationId}`);
  return transition.event;
}

/**
 * After a change: waits until its order.* events are stored, then sends what is due without
 * waiting (deliveries are asynchronous to the API call; run-due waits for them).
 */
export async function ordersChanged(sandbox: Sandbox): Promise<void> {
  await sandbox.services.orders.flush();
  void sandbox.webhooks.dispatcher.runDue().catch(() => undefined);
}

export function orderHandlers(sandbox: Sandbox): Pick<ExchangeV3Handlers, OrderOperation> {
  const { clock } = sandbox;

  /** The caller's order, or 404 (another client's order is not found either). */
  const orderOf = async (context: HandlerContext, ref: string): Promise<OrderRecord> => {
    const order = sandbox.services.orders.find(clientOf(context), ref);
    // A read may have applied a due timer (the payment window): its event is stored first.
    await ordersChanged(sandbox);
    if (order === undefined) throw new HttpError('not_found', 'No order of this client has this id, public_id or tracking_id.');
    return order;
  };

  /** Fires the operation's client event; 409 with the machine's reason when the order's status does not allow it. */
  const fireClientEvent = async (context: HandlerContext, operationId: OrderOperation, ref: string): Promise<OrderRecord> => {
    const order = await orderOf(context, ref);
    const result = sandbox.services.orders.fire(order, clientEventOf(operationId), { cause: causingRequest(context) });
    if (!result.ok) throw new HttpError('invalid_state_transition', result.reason, { status: [order.status], event: [result.reason] });
    await ordersChanged(sandbox);
    return order;
  };

  const present = (order: OrderRecord) => ({ order: sandbox.services.orders.present(order) });

  return {
    createOrder: async (request, context) => {
      const clientId = clientOf(context);
      const { outcome } = checkOrderRequest(sandbox.services, clientId, request.body);
      if (!outcome.ok) throw new HttpError(outcome.code, outcome.message, outcome.details);
      const order = sandbox.services.orders.create(clientId, outcome.draft, causingRequest(context), request.body.requisites);
      await ordersChanged(sandbox);
      return v3Success('createOrder', context, clock, 201, present(order));
    },

    getExchangeOrder: async (request, context) => v3Success('getExchangeOrder', context, clock, 200, present(await orderOf(context, request.path.order))),

    getOrder: async (request, context) => v3Success('getOrder', context, clock, 200, present(await orderOf(context, request.path.order))),

    getOrderStatus: async (request, context) => v3Success('getOrderStatus', context, clock, 200, { status: presentStatusReport(await orderOf(context, request.path.order)) }),

    getOrderActions: async (request, context) => v3Success('getOrderActions', context, clock, 200, { actions: presentActions(await orderOf(context, request.path.order)) }),

    confirmOrder: async (request, context) => {
      const order = await fireClientEvent(context, 'confirmOrder', request.path.order);
      order.paymentReference = request.body?.payment_reference ?? null;
      return v3Success('confirmOrder', context, clock, 200, present(order));
    },

    cancelOrder: async (request, context) => {
      const order = await fireClientEvent(context, 'cancelOrder', request.path.order);
      order.cancelReason = request.body?.reason ?? null;
      return v3Success('cancelOrder', context, clock, 200, present(order));
    },

    deleteOrder: async (request, context) => v3Success('deleteOrder', context, clock, 200, present(await fireClientEvent(context, 'deleteOrder', request.path.order))),

    listOrders: async (request, context) => {
      const clientId = clientOf(context);
      const service = sandbox.services.orders;
      const listRequest = v3ListRequestOf(request.query, 'listOrders', service.collection.keys);
      // Orders whose payment window ended are settled first (only those: a queue).
      service.tick();
      await ordersChanged(sandbox);
      const filters = filterPredicate(listRequest.filters, orderFilterMatchers);
      const page = listRecords(service.collection, listRequest, filters, { partition: BY_CLIENT, key: clientId });
      return v3Success('listOrders', context, clock, 200, { orders: page.items.map((o) => service.present(o)) }, { pagination: page.meta });
    },
  };
}
