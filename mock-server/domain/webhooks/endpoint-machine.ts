// Runs the generated webhook-endpoint machine (contracts/machines/webhook-endpoint.yaml): which
// event a status change the client asks for is, and when failing deliveries disable an endpoint.
// The events, the guard and the default limit are read from generated/machines.ts.
import { webhookEndpointMachine, type WebhookEndpointEvent, type WebhookEndpointState } from '../../../generated/machines.js';
import { tryFire, type FireResult } from '../machines/fire.js';

// Names of the machine file this code gives meaning to; checked against the generated table at load.
const FAILED_DELIVERIES = 'failed_deliveries';
const FAILED_DELIVERIES_REACHED = 'failed_deliveries_reached';
/** The system's event: the endpoint's deliveries keep failing. */
const FAILURES_EXCEEDED: WebhookEndpointEvent = 'failures_exceeded';

const defaultLimit = webhookEndpointMachine.limits[FAILED_DELIVERIES]?.count;
if (defaultLimit === undefined) throw new Error(`the webhook-endpoint machine lacks the ${FAILED_DELIVERIES} limit`);
if (!(FAILED_DELIVERIES_REACHED in webhookEndpointMachine.guards)) throw new Error(`the webhook-endpoint machine lacks the ${FAILED_DELIVERIES_REACHED} guard`);
if (!webhookEndpointMachine.transitions.some((t) => t.event === FAILURES_EXCEEDED)) throw new Error(`the webhook-endpoint machine lacks the ${FAILURES_EXCEEDED} event`);

/** Failed deliveries in a row that disable an endpoint, by default (the machine's limit). */
export const defaultFailedDeliveriesLimit: number = defaultLimit;

/**
 * The client's status change as the machine's client transition from `from` to `to`; the
 * machine's reason when it has none (the status is already `to`: nothing to fire).
 */
export function clientStatusChange(from: WebhookEndpointState, to: WebhookEndpointState): FireResult<WebhookEndpointState, WebhookEndpointEvent> {
  const transition = webhookEndpointMachine.transitions.find((t) => t.actor === 'client' && t.from === from && t.to === to);
  if (transition === undefined) return { ok: false, reason: `the endpoint is ${from} already` };
  return tryFire(webhookEndpointMachine, from, transition.event);
}

/**
 * The status an endpoint moves to after `failedDeliveries` deliveries in a row failed, when the
 * machine's guard holds (`limit` reached; 0 never disables); null when it stays.
 */
export function statusAfterFailures(from: WebhookEndpointState, failedDeliveries: number, limit: number): WebhookEndpointState | null {
  const reached = limit > 0 && failedDeliveries >= limit;
  const fired = tryFire(webhookEndpointMachine, from, FAILURES_EXCEEDED, { guards: { [FAILED_DELIVERIES_REACHED]: reached } });
  return fired.ok ? fired.transition.to : null;
}
