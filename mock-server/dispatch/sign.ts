// The signature and headers of one webhook delivery attempt. The signature rule is the
// contracts' info.x-webhook-signature (hex HMAC-SHA256 of the raw body bytes, keyed with the
// endpoint's secret); the header names come from the contract too.
import { createHmac } from 'node:crypto';
import { depositV1Info } from '../../generated/deposit-v1/contract-data.js';
import { exchangeV3HeaderParameters, exchangeV3Info } from '../../generated/exchange-v3/contract-data.js';

const scheme = exchangeV3Info['x-webhook-signature'];
// Both families share the engine, so they must share the rule; fail at start-up if they drift.
const v1Scheme = depositV1Info['x-webhook-signature'];
if (
  v1Scheme.algorithm !== scheme.algorithm ||
  v1Scheme.encoding !== scheme.encoding ||
  v1Scheme.signature_header !== scheme.signature_header ||
  v1Scheme.event_id_header !== scheme.event_id_header ||
  v1Scheme.signed_content !== scheme.signed_content
) {
  throw new Error('the v3 and v1 contracts declare different webhook signature schemes');
}

/**
 * Header names of a delivery: X-Signature and X-Event-Id from x-webhook-signature, the others
 * from the webhook header parameters of the contract (components.parameters).
 */
export const webhookHeaderNames = {
  signature: scheme.signature_header,
  eventId: scheme.event_id_header,
  eventType: exchangeV3HeaderParameters.WebhookEventTypeHeader,
  timestamp: exchangeV3HeaderParameters.WebhookTimestamp,
  deliveryId: exchangeV3HeaderParameters.WebhookDeliveryId,
  attempt: exchangeV3HeaderParameters.WebhookDeliveryAttempt,
} as const;

/** Lower-case hex HMAC-SHA256 of exactly these bytes (`signed_content: raw_body`). */
export function signWebhookBody(body: string | Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(body).digest(scheme.encoding);
}

export interface DeliveryHeaderInput {
  /** The exact body sent. */
  body: string;
  secret: string;
  eventId: string;
  eventType: string;
  deliveryId: string;
  attempt: number;
  /** When the attempt is sent (virtual clock). */
  now: Date;
}

export function deliveryHeaders(input: DeliveryHeaderInput): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    [webhookHeaderNames.signature]: signWebhookBody(input.body, input.secret),
    [webhookHeaderNames.eventId]: input.eventId,
    [webhookHeaderNames.eventType]: input.eventType,
    [webhookHeaderNames.timestamp]: String(Math.floor(input.now.getTime() / 1000)),
    [webhookHeaderNames.deliveryId]: input.deliveryId,
    [webhookHeaderNames.attempt]: String(input.attempt),
  };
}
