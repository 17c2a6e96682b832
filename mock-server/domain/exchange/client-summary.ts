// What /private/client and /private/health/client report of a client's own activity, computed
// from its records as they stand: its order counters (from the order machine's terminal states),
// and the state of its webhook endpoints.
import { orderMachine } from '../../../generated/machines.js';
import type { EndpointRecord } from '../../store/records/webhook-records.js';
import { completedState } from './order-lifecycle.js';
import type { OrderRecord } from './order-records.js';

export interface OrderCounts {
  total: number;
  /** Not yet in a terminal state of the order machine. */
  active: number;
  completed: number;
}

export function orderCounts(orders: Iterable<OrderRecord>): OrderCounts {
  const counts: OrderCounts = { total: 0, active: 0, completed: 0 };
  for (const order of orders) {
    counts.total += 1;
    if (!orderMachine.terminal.includes(order.status)) counts.active += 1;
    if (order.status === completedState) counts.completed += 1;
  }
  return counts;
}

export interface WebhookHealth {
  endpoints: number;
  /** Endpoints whose last delivery attempt failed (failure_count above 0), disabled ones included. */
  failing: number;
}

export function webhookHealth(endpoints: readonly Pick<EndpointRecord, 'failureCount'>[]): WebhookHealth {
  return { endpoints: endpoints.length, failing: endpoints.filter((e) => e.failureCount > 0).length };
}
