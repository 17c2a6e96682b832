// The built-in webhook inbox (sandbox control receiveInboxWebhook): what each request that
// reached it carried (headers, raw body, the delivery headers) and whether its signature is
// valid for the secret of the endpoint it was sent for, which the engine's store knows. Keeps the
// latest records within two bounds, the oldest going first: a number of records and a total
// size, measured as the records appear in the listing (JSON text, escapes included), so the
// listing of a full inbox stays within the size bound (the newest record is always kept, even
// when it alone is larger). Deliveries the mock addresses to it are handed over in-process.
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

/** The default total size of the records an inbox keeps. */
export const defaultInboxBytes = 16 * 1024 * 1024;

// What a record's other fields (names, id, date, attempt, flag) take in the listing, at most.
const recordOverheadBytes = 256;

export class WebhookInbox {
  private readonly records: { record: InboxRecord; bytes: number }[] = [];
  private received = 0;
  private bytes = 0;

  constructor(
    private readonly capacity = 1000,
    private readonly maxBytes = defaultInboxBytes,
  ) {}

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
    const bytes = listedBytes(record);
    this.records.push({ record, bytes });
    this.bytes += bytes;
    let dropped = 0;
    while (this.records.length - dropped > 1 && (this.records.length - dropped > this.capacity || this.bytes > this.maxBytes)) {
      this.bytes -= this.records[dropped]!.bytes;
      dropped += 1;
    }
    if (dropped > 0) this.records.splice(0, dropped);
    return record;
  }

  /** Oldest first. */
  list(filter: InboxFilter = {}): InboxRecord[] {
    return this.records
      .map(({ record }) => record)
      .filter((r) => (filter.eventType === undefined || r.eventType === filter.eventType) && (filter.eventId === undefined || r.eventId === filter.eventId));
  }

  /** The size the records take in the listing, as the bound counts it. */
  get size(): { records: number; bytes: number } {
    return { records: this.records.length, bytes: this.bytes };
  }

  clear(): number {
    const count = this.records.length;
    this.records.length = 0;
    this.bytes = 0;
    return count;
  }
}

/** The bytes a record takes in the listing's JSON (headers and body escaped as JSON escapes them). */
function listedBytes(record: InboxRecord): number {
  const variable = [record.headers, record.body, record.eventId, record.eventType, record.deliveryId];
  return Buffer.byteLength(JSON.stringify(variable)) + recordOverheadBytes;
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
