// Shared by the order suites: priced drafts made by hand (the domain's createOrder input, so a
// suite can put orders of any shape in place), the shortest event path to each status of the
// order machine, and the webhook inbox.
import { expect } from 'vitest';
import type { OrderRequisites, OrderStatus } from '../../generated/exchange-v3/types.js';
import { orderMachine, type OrderEvent, type OrderState } from '../../generated/machines.js';
import type { OrderDraft } from '../../mock-server/domain/exchange/order-records.js';
import type { TestServer } from './support/server.js';

export function sampleDraft(overrides: Partial<OrderDraft> = {}): OrderDraft {
  return {
    routeId: 12,
    quoteId: null,
    amountIn: '0.015',
    amountOut: '955.207462',
    rate: '64000.5',
    fee: '4.800038',
    currencyIn: 'BTC',
    currencyOut: 'USDTTRC20',
    paymentDetails: { network: 'BTC', address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh', memo: null, account: null, amount: '0.015', currency: 'BTC' },
    requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' },
    fromRequisite: null,
    toRequisite: 'TQn9Y2****KcbLSE',
    email: 'alice@example.com',
    clientOrderId: null,
    verificationRequired: { identity: false, card: false },
    ...overrides,
  };
}

export const testCause = { requestId: 'req_test_create', correlationId: 'checkout-test', idempotencyKey: 'create-key-0001' };

/**
 * An order created in the domain (createOrder over HTTP needs the catalog), of the server's
 * default client unless another is named; `raw` are the unmasked requisites as sent.
 */
export async function placeOrder(
  server: TestServer,
  overrides: Partial<OrderDraft> = {},
  options: { clientId?: string; raw?: OrderRequisites } = {},
) {
  const service = server.sandbox.services.orders;
  const draft = sampleDraft(overrides);
  const clientId = options.clientId ?? String(server.sandbox.defaultKey.client.id);
  const order = service.create(clientId, draft, testCause, options.raw ?? { to_address: draft.requisites.to_address ?? '' });
  await service.flush();
  return service.present(order);
}

/** The shortest sequence of events from the initial status to each status, over the machine's table. */
export function pathsToStates(): Map<OrderState, OrderEvent[]> {
  const paths = new Map<OrderState, OrderEvent[]>([[orderMachine.initial, []]]);
  const queue: OrderState[] = [orderMachine.initial];
  while (queue.length > 0) {
    const state = queue.shift()!;
    for (const t of orderMachine.transitions.filter((x) => x.from === state)) {
      if (paths.has(t.to)) continue;
      paths.set(t.to, [...paths.get(state)!, t.event]);
      queue.push(t.to);
    }
  }
  return paths;
}

/** Forces events on an order through the control API; returns the status reached. */
export async function force(server: TestServer, ref: string | number, events: readonly OrderEvent[]): Promise<OrderStatus | undefined> {
  let status: OrderStatus | undefined;
  for (const event of events) {
    const forced = await server.control.forceOrderEvent({ path: { order: String(ref) }, body: { event } });
    status = forced.body.result.order.status as OrderStatus;
  }
  return status;
}

/** Deliveries that reached the built-in inbox, after sending what is due. */
export async function inbox(server: TestServer, type?: string) {
  await server.control.runDueWebhooks();
  return (await server.control.listInboxWebhooks({ query: type === undefined ? {} : { event_type: type } })).body.result.deliveries;
}

/** The parsed body of the one delivery of `type` in the inbox; fails when there is none or more. */
export async function onlyEvent(server: TestServer, type: string): Promise<Record<string, unknown>> {
  const deliveries = await inbox(server, type);
  expect(deliveries.map((d) => d.event_type)).toEqual([type]);
  expect(deliveries[0]!.signature_valid).toBe(true);
  return JSON.parse(deliveries[0]!.body) as Record<string, unknown>;
}

/** Subscribes the default client's inbox endpoint to both order events. */
export async function subscribeInbox(server: TestServer): Promise<void> {
  await server.v3.createWebhookEndpoint({
    body: { name: 'Orders', url: `${server.url}/__mock/webhooks/inbox`, events: ['order.created', 'order.status_changed'] },
  });
}
