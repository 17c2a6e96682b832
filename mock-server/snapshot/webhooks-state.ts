// The webhooks part of a sandbox snapshot: the engine's endpoints, events and deliveries (every
// attempt kept), read from and written to the store; a delivery's next attempt puts it back in
// the store's due queue, so retries pending at the export are made after the load.
import type {
  SandboxStateWebhookAttempt,
  SandboxStateWebhookDelivery,
  SandboxStateWebhookEndpoint,
  SandboxStateWebhookEvent,
  SandboxStateWebhooks,
} from '../../generated/sandbox-control/types.js';
import { webhookDeliveryMachine, webhookEndpointMachine } from '../../generated/machines.js';
import { requireOneOf, StateRejected } from '../domain/state-rejected.js';
import type { AttemptRecord, DeliveryRecord, EndpointRecord, EventRecord } from '../store/records/webhook-records.js';
import type { WebhookStore } from '../store/webhook-store.js';
import { dateOf, msOf } from './instants.js';

export async function exportWebhooksState(store: WebhookStore): Promise<SandboxStateWebhooks> {
  const [endpoints, events, deliveries] = await Promise.all([store.listEndpoints(), store.listEvents(), store.listDeliveries({})]);
  return { endpoints: endpoints.map(endpointState), events: events.map(eventState), deliveries: deliveries.map(deliveryState) };
}

/** The store's records of the document; throws StateRejected where they do not fit together. */
export function webhookRecordsOf(state: SandboxStateWebhooks): { endpoints: EndpointRecord[]; events: EventRecord[]; deliveries: DeliveryRecord[] } {
  const endpoints = state.endpoints.map((record, index) => endpointOf(record, `/webhooks/endpoints/${index}`));
  const events = state.events.map(eventOf);
  const deliveries = state.deliveries.map((record, index) => deliveryOf(record, `/webhooks/deliveries/${index}`));
  const clientOfEndpoint = clientsById(endpoints, '/webhooks/endpoints');
  const clientOfEvent = clientsById(events, '/webhooks/events');
  clientsById(deliveries, '/webhooks/deliveries');
  deliveries.forEach((delivery, index) => {
    const pointer = `/webhooks/deliveries/${index}`;
    const eventClient = clientOfEvent.get(delivery.eventId);
    if (eventClient === undefined) throw new StateRejected(`${pointer}/eventId`, `no event has id ${JSON.stringify(delivery.eventId)}`);
    // A delivery is made to an endpoint of its event's client (WebhookService.emit, site-endpoint.ts):
    // its client reads it, and its attempts send the event's body to the endpoint's URL.
    if (delivery.clientId !== eventClient) throw new StateRejected(`${pointer}/clientId`, `is not the client ${JSON.stringify(eventClient)} of its event`);
    // An endpoint deleted keeps its deliveries, which name it still: only one that is there must be the client's.
    const endpointClient = clientOfEndpoint.get(delivery.endpointId);
    if (endpointClient !== undefined && endpointClient !== delivery.clientId) throw new StateRejected(`${pointer}/endpointId`, `names an endpoint of another client (${JSON.stringify(endpointClient)})`);
  });
  return { endpoints, events, deliveries };
}

export async function restoreWebhooks(store: WebhookStore, records: ReturnType<typeof webhookRecordsOf>): Promise<void> {
  for (const endpoint of records.endpoints) await store.saveEndpoint(endpoint);
  for (const event of records.events) await store.saveEvent(event);
  for (const delivery of records.deliveries) await store.saveDelivery(delivery);
}

/** Each record's client by its id; throws StateRejected at the second record of an id. */
function clientsById(records: readonly { id: string; clientId: string }[], pointer: string): Map<string, string> {
  const clientOf = new Map<string, string>();
  records.forEach(({ id, clientId }, index) => {
    if (clientOf.has(id)) throw new StateRejected(`${pointer}/${index}/id`, `id ${JSON.stringify(id)} appears twice`);
    clientOf.set(id, clientId);
  });
  return clientOf;
}

function endpointState(endpoint: EndpointRecord): SandboxStateWebhookEndpoint {
  const { lastDeliveryAt, lastSuccessAt, lastFailureAt, createdAt, updatedAt, ...rest } = endpoint;
  return {
    ...rest,
    lastDeliveryAtMs: msOf(lastDeliveryAt),
    lastSuccessAtMs: msOf(lastSuccessAt),
    lastFailureAtMs: msOf(lastFailureAt),
    createdAtMs: createdAt.getTime(),
    updatedAtMs: updatedAt.getTime(),
  };
}

function endpointOf(record: SandboxStateWebhookEndpoint, pointer: string): EndpointRecord {
  const { lastDeliveryAtMs, lastSuccessAtMs, lastFailureAtMs, createdAtMs, updatedAtMs, status, ...rest } = record;
  return {
    ...rest,
    status: requireOneOf(status, webhookEndpointMachine.states, `${pointer}/status`),
    lastDeliveryAt: dateOf(lastDeliveryAtMs),
    lastSuccessAt: dateOf(lastSuccessAtMs),
    lastFailureAt: dateOf(lastFailureAtMs),
    createdAt: new Date(createdAtMs),
    updatedAt: new Date(updatedAtMs),
  };
}

function eventState(event: EventRecord): SandboxStateWebhookEvent {
  const { createdAt, ...rest } = event;
  return { ...rest, createdAtMs: createdAt.getTime() };
}

function eventOf(record: SandboxStateWebhookEvent): EventRecord {
  const { createdAtMs, ...rest } = record;
  return { ...rest, createdAt: new Date(createdAtMs) };
}

function deliveryState(delivery: DeliveryRecord): SandboxStateWebhookDelivery {
  const { attempts, nextAttemptAt, deliveredAt, createdAt, updatedAt, ...rest } = delivery;
  return {
    ...rest,
    attempts: attempts.map(({ at, ...attempt }): SandboxStateWebhookAttempt => ({ ...attempt, atMs: at.getTime() })),
    nextAttemptAtMs: msOf(nextAttemptAt),
    deliveredAtMs: msOf(deliveredAt),
    createdAtMs: createdAt.getTime(),
    updatedAtMs: updatedAt.getTime(),
  };
}

function deliveryOf(record: SandboxStateWebhookDelivery, pointer: string): DeliveryRecord {
  const { attempts, nextAttemptAtMs, deliveredAtMs, createdAtMs, updatedAtMs, status, ...rest } = record;
  return {
    ...rest,
    status: requireOneOf(status, webhookDeliveryMachine.states, `${pointer}/status`),
    attempts: attempts.map(({ atMs, ...attempt }): AttemptRecord => ({ ...attempt, at: new Date(atMs) })),
    nextAttemptAt: dateOf(nextAttemptAtMs),
    deliveredAt: dateOf(deliveredAtMs),
    createdAt: new Date(createdAtMs),
    updatedAt: new Date(updatedAtMs),
  };
}
