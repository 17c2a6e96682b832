// How the memory engine keeps a webhook event: one record per event for as long as the sandbox
// lives (an order's order.created among them), so it is kept small. It keeps apart only what the
// event lists read without unpacking (the id, client, type and instant); the rest (resource,
// status, request ids, delivery ids: mostly short or null) is written as a JSON line after the
// body and deflated with it, so that the copies of those values in the body serve for both. The
// payload is not kept beside the body when the body already carries it as its last member `data`
// (every event the engine emits: the v3 event body and the v1 site callback both end with it).
// The dictionary is the bodies' common text followed by the event's own head (its id, type and
// instant, which the record keeps anyway, so the body does not pay for them twice): about 1,130
// characters of an order.created body with a payout address become about 220 bytes, kept as a
// latin1 string (no Buffer and no pool slice kept alive per event); instants are epoch numbers,
// not Dates. Unpacking gives back the same record.
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

/** The packed fields as most order events have them (see PackedFields). */
const fieldsExample = Buffer.from('\n["order",1,"pending","req_seed_0",null,null,[]]');

// A 4 KB window covers the dictionary and a typical body. memLevel 2 keeps each call's setup
// small and still lets a body fit one block (at 1, zlib ends a block every 128 symbols, and an
// order.created body with requisites paid a second block's Huffman tables: about 30 bytes).
const zlibOptions: ZlibOptions = { windowBits: 12, memLevel: 2, level: 6 };

/**
 * The dictionary of one event: the common text, an example of the packed fields, then the head a
 * v3 body starts with, written from the packed record's fields (a body that starts otherwise is
 * only compressed less). Last, so zlib reaches it cheapest.
 */
function dictionaryOf(event: Pick<PackedEvent, 'id' | 'type' | 'createdAtMs'>): ZlibOptions {
  const at = new Date(event.createdAtMs);
  // An instant too far for toISOString is written as nothing: the dictionary only has to be the same both ways.
  const createdAt = Number.isNaN(at.getTime()) ? '' : at.toISOString();
  const head = `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"created_at":"${createdAt}",`;
  return { ...zlibOptions, dictionary: Buffer.concat([dictionary, fieldsExample, Buffer.from(head)]) };
}

/** The member a body ends with when it carries the payload (see the file's comment). */
const dataMember = ',"data":';

/** The fields packed after the body (its last line: JSON has no raw newline), in this order. */
type PackedFields = [
  resourceType: string,
  resourceId: string | number | null,
  status: EventStatus,
  requestId: string | null,
  correlationId: string | null,
  idempotencyKey: string | null,
  deliveryIds: string[],
];

export class PackedEvent {
  constructor(
    readonly id: string,
    readonly clientId: string,
    readonly type: string,
    readonly createdAtMs: number,
    /** The payload when the body does not carry it; null when it does. */
    readonly payload: Record<string, unknown> | null,
    /** The body, a newline, then the packed fields' JSON: deflated, as a latin1 string. */
    readonly deflated: string,
  ) {}
}

export function packEvent(event: EventRecord): PackedEvent {
  const carried = event.body.endsWith(`${dataMember}${JSON.stringify(event.payload)}}`);
  const fields: PackedFields = [event.resource.type, event.resource.id, event.status, event.requestId, event.correlationId, event.idempotencyKey, event.deliveryIds];
  const createdAtMs = event.createdAt.getTime();
  const deflated = deflateRawSync(`${event.body}\n${JSON.stringify(fields)}`, dictionaryOf({ id: event.id, type: event.type, createdAtMs }));
  return new PackedEvent(flatString(event.id), event.clientId, event.type, createdAtMs, carried ? null : structuredClone(event.payload), deflated.toString('latin1'));
}

export function unpackEvent(packed: PackedEvent): EventRecord {
  const text = inflateRawSync(Buffer.from(packed.deflated, 'latin1'), dictionaryOf(packed)).toString('utf8');
  const newline = text.lastIndexOf('\n');
  const [resourceType, resourceId, status, requestId, correlationId, idempotencyKey, deliveryIds] = JSON.parse(text.slice(newline + 1)) as PackedFields;
  const body = text.slice(0, newline);
  return {
    id: packed.id,
    clientId: packed.clientId,
    type: packed.type,
    resource: { type: resourceType, id: resourceId },
    payload: packed.payload === null ? (JSON.parse(body) as { data: Record<string, unknown> }).data : structuredClone(packed.payload),
    status,
    requestId,
    correlationId,
    idempotencyKey,
    body,
    deliveryIds: deliveryIds,
    createdAt: new Date(packed.createdAtMs),
  };
}
