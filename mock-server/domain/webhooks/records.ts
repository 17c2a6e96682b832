// A new delivery record, as the webhook engine makes it, and its last attempt (the shapes are
// the store's: store/records/webhook-records.ts).
import type { AttemptRecord, DeliveryRecord, EndpointRecord, EventRecord } from '../../store/records/webhook-records.js';
import type { DeliveryStatus } from './delivery-machine.js';

/** A new delivery of an event to an endpoint, before any attempt: the machine's initial status. */
export function newDelivery(fields: {
  id: string;
  event: Pick<EventRecord, 'id' | 'clientId' | 'type'>;
  endpoint: Pick<EndpointRecord, 'id' | 'url'>;
  initialStatus: DeliveryStatus;
  targeted: boolean;
  maxAttempts: number;
  /** When the first attempt is due; null records the delivery without ever sending it. */
  dueAt: Date | null;
  now: Date;
}): DeliveryRecord {
  return {
    id: fields.id,
    clientId: fields.event.clientId,
    eventId: fields.event.id,
    eventType: fields.event.type,
    endpointId: fields.endpoint.id,
    endpointUrl: fields.endpoint.url,
    targeted: fields.targeted,
    status: fields.initialStatus,
    attempts: [],
    maxAttempts: fields.maxAttempts,
    nextAttemptAt: fields.dueAt,
    deliveredAt: null,
    createdAt: fields.now,
    updatedAt: fields.now,
  };
}

/** The delivery's latest attempt: the contract's request, response and error; undefined before the first. */
export function lastAttempt(delivery: Pick<DeliveryRecord, 'attempts'>): AttemptRecord | undefined {
  return delivery.attempts[delivery.attempts.length - 1];
}
