// The webhook engine's records as the store keeps them (camelCase, Dates); presenters turn them
// into the contract's shapes. Types are strings here, not the v3 union, since v1 `deposit.*`
// callbacks share the engine. A delivery's status is a state of the generated delivery machine.
import type { WebhookDeliveryState as DeliveryStatus } from '../../../generated/machines.js';

export type EndpointStatus = 'active' | 'disabled';

/** Roll-up of an event's deliveries (x-assumption of WebhookEventStatus in the v3 contract). */
export type EventStatus = 'pending' | 'delivered' | 'failed' | 'partially_delivered';

export interface EndpointRecord {
  id: string;
  clientId: string;
  name: string;
  url: string;
  events: string[];
  status: EndpointStatus;
  /** Kept to sign with; shown to the client only by create and rotate-secret. */
  secret: string;
  secretFingerprint: string;
  /** Failed attempts since the last successful one (the contract's failure_count). */
  failureCount: number;
  /** Deliveries in a row that ended failed (every attempt exhausted); the endpoint machine's guard counts them. */
  failedDeliveries: number;
  /** A v1 site's callback: it mirrors the site's settings, so the endpoint machine does not disable it. */
  mirrorsSite: boolean;
  lastDeliveryAt: Date | null;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface EventResource {
  type: string;
  id: string | number | null;
}

export interface EventRecord {
  id: string;
  clientId: string;
  type: string;
  resource: EventResource;
  payload: Record<string, unknown>;
  status: EventStatus;
  requestId: string | null;
  correlationId: string | null;
  idempotencyKey: string | null;
  /** The exact JSON text POSTed (and signed) on every attempt of every delivery. */
  body: string;
  deliveryIds: string[];
  createdAt: Date;
}

export interface AttemptRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface AttemptResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface AttemptError {
  /** For example `timeout`, `connection_refused`, `dns_error`, `tls_error`. */
  code: string;
  message: string;
}

/** One attempt of a delivery, as it was made: every attempt is kept, the last one last. */
export interface AttemptRecord {
  /** 1 for the delivery's first attempt. */
  number: number;
  /** succeeded: the receiver answered 2xx; failed otherwise. */
  status: 'succeeded' | 'failed';
  /** On the virtual clock, when the outcome was recorded. */
  at: Date;
  /** Real milliseconds the attempt took (the virtual clock may stand still meanwhile). */
  durationMs: number;
  request: AttemptRequest;
  /** The receiver's answer; null when there was none (see `error`). */
  response: AttemptResponse | null;
  /** Why there was no HTTP answer; null when there was one. */
  error: AttemptError | null;
}

export interface DeliveryRecord {
  id: string;
  clientId: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  endpointUrl: string;
  /** Addressed to this endpoint by name (a test webhook): sent whatever the endpoint's status. */
  targeted: boolean;
  status: DeliveryStatus;
  /** Every attempt made so far, oldest first (none before the first); their count is the contract's `attempt`. */
  attempts: AttemptRecord[];
  /** Automatic attempts this delivery may make (the schedule's length; 1 for the v1 test webhook). */
  maxAttempts: number;
  /** When the next attempt is due; null when none is (the due queue is exactly these). */
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
