// The engine's records (camelCase, Dates) as the v3 contract's shapes: WebhookEndpoint (never
// with its secret), WebhookEvent, WebhookDelivery with every attempt, and the test webhook's
// summary.
import { exchangeV3Info } from '../../generated/exchange-v3/contract-data.js';
import type {
  DeliveryStatus,
  TestWebhookResult,
  WebhookAttemptError,
  WebhookAttemptRequest,
  WebhookAttemptResponse,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookEndpoint,
  WebhookEventStatus,
  WebhookEvent,
  WebhookEventType,
} from '../../generated/exchange-v3/types.js';
import { schemaBound } from '../bundled-contracts.js';
import { lastAttempt } from '../domain/webhooks/records.js';
import type { AttemptRecord, DeliveryRecord, EndpointRecord, EventRecord } from '../store/records/webhook-records.js';

const signingAlgorithm = exchangeV3Info['x-webhook-signature'].signing_algorithm as WebhookEndpoint['signing_algorithm'];

/**
 * WebhookAttemptResponse.body's maxLength in the contract ("cut to keep the log small"); the
 * transport keeps more, the presenter shows the contract's share.
 */
const responseBodyMaxChars = schemaBound('exchange-v3', 'WebhookAttemptResponse.body', 'maxLength');

/** Statuses in which WebhookDelivery.next_retry_at is set (its description: "retrying or queued"). */
const nextRetryStatuses: readonly DeliveryStatus[] = ['retrying', 'queued'];

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

export function presentEndpoint(record: EndpointRecord): WebhookEndpoint {
  return {
    id: record.id,
    name: record.name,
    url: record.url,
    // The engine stores strings (v1 deposit.* shares it); v3 endpoints only ever subscribe to v3 types.
    events: record.events as WebhookEventType[],
    status: record.status,
    signing_algorithm: signingAlgorithm,
    secret_fingerprint: record.secretFingerprint,
    failure_count: record.failureCount,
    last_delivery_at: iso(record.lastDeliveryAt),
    last_success_at: iso(record.lastSuccessAt),
    last_failure_at: iso(record.lastFailureAt),
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}

/** The endpoint with the secret it has now: only create and rotate-secret answer this. */
export function presentEndpointWithSecret(record: EndpointRecord, secret: string): WebhookEndpoint & { secret: string } {
  return { ...presentEndpoint(record), secret };
}

/** An event; lists pass no deliveries (the contract keeps them out of lists), reads pass them all. */
export function presentEvent(record: EventRecord, deliveries: readonly DeliveryRecord[] = []): WebhookEvent {
  return {
    id: record.id,
    type: record.type as WebhookEventType,
    resource: { type: record.resource.type, id: record.resource.id },
    status: record.status,
    request_id: record.requestId,
    correlation_id: record.correlationId,
    idempotency_key: record.idempotencyKey,
    payload: record.payload,
    deliveries_count: record.deliveryIds.length,
    deliveries: deliveries.map(presentDelivery),
    created_at: record.createdAt.toISOString(),
  };
}

export function presentDelivery(record: DeliveryRecord): WebhookDelivery {
  const last = lastAttempt(record);
  return {
    id: record.id,
    status: record.status,
    attempt: record.attempts.length,
    endpoint: { id: record.endpointId, url: record.endpointUrl },
    event: { id: record.eventId, type: record.eventType as WebhookEventType },
    request: last === undefined ? null : presentAttemptRequest(last),
    response: last === undefined ? null : presentAttemptResponse(last),
    error: last === undefined ? null : presentAttemptError(last),
    attempts: record.attempts.map(presentAttempt),
    next_retry_at: nextRetryStatuses.includes(record.status) ? iso(record.nextAttemptAt) : null,
    delivered_at: iso(record.deliveredAt),
    created_at: record.createdAt.toISOString(),
  };
}

function presentAttempt(attempt: AttemptRecord): WebhookDeliveryAttempt {
  return {
    attempt: attempt.number,
    status: attempt.status,
    attempted_at: attempt.at.toISOString(),
    duration_ms: durationMs(attempt),
    request: presentAttemptRequest(attempt),
    response: presentAttemptResponse(attempt),
    error: presentAttemptError(attempt),
  };
}

function presentAttemptRequest({ request }: AttemptRecord): WebhookAttemptRequest {
  return { url: request.url, headers: { ...request.headers }, body: request.body };
}

function presentAttemptResponse(attempt: AttemptRecord): WebhookAttemptResponse | null {
  const { response } = attempt;
  if (response === null) return null;
  return { status: response.status, headers: { ...response.headers }, body: response.body.slice(0, responseBodyMaxChars), duration_ms: durationMs(attempt) };
}

function presentAttemptError({ error }: AttemptRecord): WebhookAttemptError | null {
  return error === null ? null : { code: error.code, message: error.message };
}

const durationMs = (attempt: AttemptRecord): number => Math.max(0, Math.round(attempt.durationMs));

export function presentTestWebhook(event: EventRecord, deliveries: readonly DeliveryRecord[]): TestWebhookResult {
  return {
    event: {
      id: event.id,
      type: event.type as WebhookEventType,
      status: event.status as WebhookEventStatus,
      request_id: event.requestId,
      correlation_id: event.correlationId,
    },
    deliveries: deliveries.map((d) => ({ id: d.id, status: d.status, endpoint_id: d.endpointId })),
  };
}
