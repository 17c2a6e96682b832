// Drives a new v3 order along a trigger plan's transitions: an order is created the way an
// integrator would (the first enabled route that quotes and preflights the contract example's
// email and requisites), then each transition is fired as the machine says it happens: a
// client event through the operation it names (`via`: confirmOrder, cancelOrder…), any other
// through the control API's forceOrderEvent.
import { randomUUID } from 'node:crypto';
import { exchangeV3Operations, type ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import type { OperationSpec } from '../../generated/runtime/client-runtime.js';
import type { OrderMachineEvent } from '../../generated/sandbox-control/types.js';
import { requestExample } from '../../conformance/contract/document.js';
import type { MockSession } from './mock-session.js';
import type { AnyTransition } from './trigger-plans.js';

/** Routes quoted and preflighted at most before giving up (each costs two requests). */
const maxRoutesTried = 200;

/** The created order's tracking id (a uuid every event of the order carries). */
export async function driveOrder(session: MockSession, path: readonly AnyTransition[], log: (line: string) => void): Promise<string> {
  const v3 = await session.v3();
  const order = await createOrder(v3);
  log(`created order ${order.id} (public_id ${order.public_id}, tracking_id ${order.tracking_id}), ${order.status}`);
  for (const transition of path) {
    const operationId = transition.actor === 'client' ? transition.via[0] : undefined;
    if (operationId !== undefined) {
      const spec = (exchangeV3Operations as Readonly<Record<string, OperationSpec>>)[operationId]!;
      await v3.runtime.request(spec, { path: { order: String(order.id) } });
      log(`order ${order.id}: ${transition.event} through ${operationId} → ${transition.to}`);
    } else {
      await session.control.forceOrderEvent({ path: { order: String(order.id) }, body: { event: transition.event as OrderMachineEvent } });
      log(`order ${order.id}: ${transition.event} (forced, as ${transition.actor === 'operator' ? 'staff' : 'the exchanger'} would) → ${transition.to}`);
    }
  }
  return order.tracking_id;
}

async function createOrder(v3: ExchangeV3Client) {
  const example = requestExample('exchange-v3', 'createOrder') as { email: string; requisites: Record<string, string> };
  let tried = 0;
  for await (const route of v3.listRoutesAll()) {
    if (!route.is_enabled) continue;
    if ((tried += 1) > maxRoutesTried) break;
    const quote = (await v3.createQuote({ body: { route_id: route.id, amount: route.limits.min_give, amount_side: 'give' } })).body.result.quote;
    const preflight = (await v3.preflightOrder({ body: { quote_id: quote.id, email: example.email, requisites: example.requisites } })).body.result.preflight;
    if (!preflight.ok) continue;
    const body = { quote_id: quote.id, email: example.email, requisites: example.requisites, client_order_id: `trigger-${randomUUID()}` };
    return (await v3.createOrder({ body })).body.result.order;
  }
  throw new Error(`none of ${Math.min(tried, maxRoutesTried)} enabled routes accepted the contract example's requisites in preflight`);
}
