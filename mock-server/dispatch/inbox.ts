// The built-in webhook inbox (sandbox control receiveInboxWebhook): what each request that
// reached it carried (headers, raw body, the delivery headers) and whether its signature is
// valid for the secret of the endpoint it was sent for, which the engine's store knows. Keeps the
// latest `capacity` records. Deliveries reach it over real HTTP like any other target.
import { timingSafeEqual } from 'node:crypto';
import type { WebhookStore } from '../store/webhook-store.js';
import { signWebhookBody, webhookHeaderNames } from './sign.js';

export interface InboxRecord {
  id: string;
  receivedAt: Date;
  /** Every header by lower-case name. */
  headers: Record<string, string>;
  /** The raw body as UTF-8 text. */
  body: string;
  eventId: string | null;
  eventType: string | null;
  deliveryId: string | null;
  attempt: number | null;
  signatureValid: boolean | null;
}

export interface InboxFilter {
  eventType?: string;
  eventId?: string;
}

export class WebhookInbox {
  private readonly records: InboxRecord[] = [];
  private received = 0;

  constructor(private readonly capacity = 1000) {}

  add(input: { headers: Record<string, string>; raw: Buffer; receivedAt: Date; signatureValid: boolean | null }): InboxRecord {
    const { headers } = input;
    const attempt = Number(headers[lower(webhookHeaderNames.attempt)]);
    const record: InboxRecord = {
      id: `inbox_${(this.received += 1)}`,
      receivedAt: input.receivedAt,
      headers,
      body: input.raw.toString('utf8'),
      eventId: headers[lower(webhookHeaderNames.eventId)] ?? null,
      eventType: headers[lower(webhookHeaderNames.eventType)] ?? null,
      deliveryId: headers[lower(webhookHeaderNames.deliveryId)] ?? null,
      attempt: Number.isSafeInteger(attempt) && attempt >= 1 ? attempt : null,
      signatureValid: input.signatureValid,
    };
    this.records.push(record);
    if (this.records.length > this.capacity) this.records.splice(0, this.records.length - this.capacity);
    return record;
  }

  /** Oldest first. */
  list(filter: InboxFilter = {}): InboxRecord[] {
    return this.records.filter(
      (r) => (filter.eventType === undefined || r.eventType === filter.eventType) && (filter.eventId === undefined || r.eventId === filter.eventId),
    );
  }

  clear(): number {
    const count = this.records.length;
    this.records.length = 0;
    return count;
  }
}

/**
 * Whether the signature header is the body's signature with the secret of the endpoint the
 * delivery belongs to (found by the delivery id header, else by the event id header): null when
 * neither names a delivery of this mock, false when the header is missing or wrong. An event
 * with several deliveries is valid when the signature matches any of their endpoints' secrets.
 */
export async function signatureValidity(store: WebhookStore, headers: Record<string, string>, raw: Buffer): Promise<boolean | null> {
  const secrets = await secretsFor(store, headers);
  if (secrets.length === 0) return null;
  const given = headers[lower(webhookHeaderNames.signature)];
  if (given === undefined) return false;
  return secrets.some((secret) => sameText(signWebhookBody(raw, secret), given));
}

async function secretsFor(store: WebhookStore, headers: Record<string, string>): Promise<string[]> {
  const deliveryId = headers[lower(webhookHeaderNames.deliveryId)];
  const delivery = deliveryId === undefined ? undefined : await store.getDelivery(deliveryId);
  const eventId = headers[lower(webhookHeaderNames.eventId)];
  const endpointIds =
    delivery !== undefined
      ? [delivery.endpointId]
      : eventId === undefined
        ? []
        : (await store.listDeliveries({ eventId })).map((d) => d.endpointId);
  const secrets: string[] = [];
  for (const id of new Set(endpointIds)) {
    const endpoint = await store.getEndpoint(id);
    if (endpoint !== undefined) secrets.push(endpoint.secret);
  }
  return secrets;
}

function sameText(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function lower(name: string): string {
  return name.toLowerCase();
}
