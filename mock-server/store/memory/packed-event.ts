// How the memory engine keeps a webhook event: one record per event for as long as the sandbox
// lives (an order's order.created among them), so it is kept small. The payload is not kept
// beside the body when the body already carries it as its last member `data` (every event the
// engine emits: the v3 event body and the v1 site callback both end with it); the body is kept
// deflated against a preset dictionary of the bodies' common text followed by the event's own
// head (its id, type, instant, resource and request id, which the packed record keeps anyway, so
// the body does not pay for them twice): about 1,130 characters of an order.created body with a
// payout address become about 220 bytes, as a latin1 string (no Buffer and no pool slice kept
// alive per event); instants are epoch numbers, not Dates. Unpacking gives back the same record.
import { deflateRawSync, inflateRawSync, type ZlibOptions } from 'node:zlib';
import type { EventRecord, EventStatus } from '../records/webhook-records.js';
import { flatString } from '../flat-string.js';

/**
 * Text the bodies share: a v1 site callback's members, then a whole order event as the v3 body
 * carries it (zlib finds the nearest matches cheapest, so the most common text comes last). Its
 * values are examples; only the shape matters. Changing it is safe: nothing packed outlives the process.
 */
const dictionary = Buffer.from(
  [
    '{"eventId":"","type":"deposit.","createdAt":"","isFinal":false,"data":{"uuid":"","status":"pending","confirmations":0,"txid":null}}',
    '{"id":"","type":"order.status_changed","previous_status":"awaiting_payment","status":"expired"}',
    '{"id":"30850455-185d-4989-b9f0-0b2441ebaa12","type":"order.created","created_at":"2026-11-28T08:08:16.185Z",',
    '"resource":{"type":"order","id":1},"request_id":"req_seed_0","correlation_id":null,"idempotency_key":null,',
    '"data":{"order":{"id":1,"public_id":"EXPM5PSJF9","tracking_id":"c0300099-a609-4fba-a7c7-49dff951a247",',
    '"status":"awaiting_payment","route_id":1,"quote_id":null,"client_order_id":null,"email":"client1@sandbox.test",',
    '"amount_in":"0.00022623","amount_out":"0.006418","currency_in":"BTC","currency_out":"ETH","rate":"28.369378","fee":"0",',
    '"from_requisite":null,"to_requisite":"****","requisites":{"to_address":""},"payment_details":{"network":"BTC",',
    '"address":"bc1qplksvw83hgycsxtf3fl8uxyyf3cza3n47na6p9","memo":null,"account":null,"amount":"0.00022623","currency":"BTC",',
    '"expires_at":"2026-11-28T08:38:16.156Z","amount_received":"0","transactions":[]},"verification":{"required":false,"status":null},',
    '"correlation_id":null,"expires_at":"2026-11-28T08:38:16.156Z","created_at":"2026-11-28T08:08:16.156Z",',
    '"updated_at":"2026-11-28T08:08:16.156Z","completed_at":null}}}',
  ].join(''),
);

// A 4 KB window covers the dictionary and a typical body. memLevel 2 keeps each call's setup
// small and still lets a body fit one block (at 1, zlib ends a block every 128 symbols, and an
// order.created body with requisites paid a second block's Huffman tables: about 30 bytes).
const zlibOptions: ZlibOptions = { windowBits: 12, memLevel: 2, level: 6 };

/**
 * The dictionary of one event: the common text, then the head a v3 body starts with, written from
 * the packed record's fields (a body that starts otherwise is only compressed less). Last, so
 * zlib reaches it cheapest.
 */
function dictionaryOf(event: Pick<PackedEvent, 'id' | 'type' | 'createdAtMs' | 'resourceType' | 'resourceId' | 'requestId'>): ZlibOptions {
  const resource = JSON.stringify({ type: event.resourceType, id: event.resourceId });
  const at = new Date(event.createdAtMs);
  // An instant too far for toISOString is written as nothing: the dictionary only has to be the same both ways.
  const createdAt = Number.isNaN(at.getTime()) ? '' : at.toISOString();
  const head = `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"created_at":"${createdAt}","resource":${resource},"request_id":${JSON.stringify(event.requestId)}`;
  return { ...zlibOptions, dictionary: Buffer.concat([dictionary, Buffer.from(head)]) };
}

/** Most events have no delivery (no endpoint subscribed): they share one empty list. */
const noDeliveries: readonly string[] = Object.freeze([]);

/** The member a body ends with when it carries the payload (see the file's comment). */
const dataMember = ',"data":';

export class PackedEvent {
  constructor(
    readonly id: string,
    readonly clientId: string,
    readonly type: string,
    readonly resourceType: string,
    readonly resourceId: string | number | null,
    readonly payload: Record<string, unknown> | null,
    readonly status: EventStatus,
    readonly requestId: string | null,
    readonly correlationId: string | null,
    readonly idempotencyKey: string | null,
    readonly deflatedBody: string,
    readonly deliveryIds: readonly string[],
    readonly createdAtMs: number,
  ) {}
}

export function packEvent(event: EventRecord): PackedEvent {
  const carried = event.body.endsWith(`${dataMember}${JSON.stringify(event.payload)}}`);
  const requestId = event.requestId === null ? null : flatString(event.requestId);
  const createdAtMs = event.createdAt.getTime();
  const head = { id: event.id, type: event.type, createdAtMs, resourceType: event.resource.type, resourceId: event.resource.id, requestId };
  return new PackedEvent(
    flatString(event.id),
    event.clientId,
    event.type,
    event.resource.type,
    event.resource.id,
    carried ? null : structuredClone(event.payload),
    event.status,
    requestId,
    event.correlationId,
    event.idempotencyKey,
    deflateRawSync(event.body, dictionaryOf(head)).toString('latin1'),
    event.deliveryIds.length === 0 ? noDeliveries : [...event.deliveryIds],
    createdAtMs,
  );
}

export function unpackEvent(packed: PackedEvent): EventRecord {
  const body = inflateRawSync(Buffer.from(packed.deflatedBody, 'latin1'), dictionaryOf(packed)).toString('utf8');
  return {
    id: packed.id,
    clientId: packed.clientId,
    type: packed.type,
    resource: { type: packed.resourceType, id: packed.resourceId },
    payload: packed.payload === null ? (JSON.parse(body) as { data: Record<string, unknown> }).data : structuredClone(packed.payload),
    status: packed.status,
    requestId: packed.requestId,
    correlationId: packed.correlationId,
    idempotencyKey: packed.idempotencyKey,
    body,
    deliveryIds: [...packed.deliveryIds],
    createdAt: new Date(packed.createdAtMs),
  };
}
