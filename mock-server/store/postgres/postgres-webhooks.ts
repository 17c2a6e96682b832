// The PostgreSQL engine's webhook records: endpoints, events and deliveries as JSON documents,
// with the columns lists and the due queue are read by (client, event, endpoint, next attempt).
import type { Pool } from 'pg';
import { dateTag, decodeRecord, encodeRecord } from '../record-codec.js';
import type { DeliveryRecord, EndpointRecord, EventRecord } from '../records/webhook-records.js';
import type { ListedPage } from '../list-records.js';
import type { ListFamily, ListRequest } from '../list-query.js';
import { inOrderOf, pageOfHeads, type LogHead } from '../log-pages.js';
import type { ClaimedDelivery, DeliveryFacets, DeliveryFilter, EventFacets, WebhookStore } from '../webhook-store.js';

type Doc = { doc: string };

export class PostgresWebhookStore implements WebhookStore {
  constructor(private readonly pool: Pool) {}

  private async docs<T>(sql: string, params: unknown[]): Promise<T[]> {
    return (await this.pool.query<Doc>(sql, params)).rows.map((row) => decodeRecord<T>(row.doc));
  }

  async saveEndpoint(endpoint: EndpointRecord): Promise<void> {
    await this.pool.query('INSERT INTO webhook_endpoints (id, client_id, doc) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc', [
      endpoint.id,
      endpoint.clientId,
      encodeRecord(endpoint),
    ]);
  }

  async getEndpoint(id: string): Promise<EndpointRecord | undefined> {
    return (await this.docs<EndpointRecord>('SELECT doc FROM webhook_endpoints WHERE id = $1', [id]))[0];
  }

  async deleteEndpoint(id: string): Promise<boolean> {
    return ((await this.pool.query('DELETE FROM webhook_endpoints WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  listEndpoints(clientId?: string): Promise<EndpointRecord[]> {
    return clientId === undefined
      ? this.docs('SELECT doc FROM webhook_endpoints ORDER BY seq', [])
      : this.docs('SELECT doc FROM webhook_endpoints WHERE client_id = $1 ORDER BY seq', [clientId]);
  }

  async countEndpoints(clientId: string): Promise<number> {
    return Number((await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM webhook_endpoints WHERE client_id = $1', [clientId])).rows[0]?.n ?? 0);
  }

  async saveEvent(event: EventRecord): Promise<void> {
    await this.pool.query('INSERT INTO webhook_events (id, client_id, doc) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc', [event.id, event.clientId, encodeRecord(event)]);
  }

  async getEvent(id: string): Promise<EventRecord | undefined> {
    return (await this.docs<EventRecord>('SELECT doc FROM webhook_events WHERE id = $1', [id]))[0];
  }

  listEvents(): Promise<EventRecord[]> {
    return this.docs('SELECT doc FROM webhook_events ORDER BY seq', []);
  }

  async pageEvents<F extends ListFamily>(clientId: string, request: ListRequest<F>, filter?: (event: EventFacets) => boolean): Promise<ListedPage<EventRecord, F>> {
    const { rows } = await this.pool.query<LogHead<EventFacets>>(
      `SELECT id, doc::jsonb ->> 'type' AS "type", (doc::jsonb -> 'createdAt' ->> $2)::float8 AS "createdAtMs" FROM webhook_events WHERE client_id = $1`,
      [clientId, dateTag],
    );
    return pageOfHeads(rows, request, filter, async (ids) =>
      inOrderOf(ids, await this.docs<EventRecord>('SELECT doc FROM webhook_events WHERE id = ANY($1)', [ids]), (event) => event.id),
    );
  }

  async saveDelivery(delivery: DeliveryRecord): Promise<void> {
    const { id, clientId, eventId, endpointId, nextAttemptAt } = delivery;
    await this.pool.query(
      `INSERT INTO webhook_deliveries (id, client_id, event_id, endpoint_id, next_attempt_at, queue_seq, doc)
       VALUES ($1, $2, $3, $4, $5, nextval('webhook_queue_seq'), $6)
       ON CONFLICT (id) DO UPDATE SET next_attempt_at = excluded.next_attempt_at, queue_seq = excluded.queue_seq, doc = excluded.doc, lease_until = NULL`,
      [id, clientId, eventId, endpointId, nextAttemptAt?.getTime() ?? null, encodeRecord(delivery)],
    );
  }

  async getDelivery(id: string): Promise<DeliveryRecord | undefined> {
    return (await this.docs<DeliveryRecord>('SELECT doc FROM webhook_deliveries WHERE id = $1', [id]))[0];
  }

  listDeliveries(filter: DeliveryFilter): Promise<DeliveryRecord[]> {
    // Built from fixed column names only; the values are parameters.
    const columns = [
      ['event_id', filter.eventId],
      ['endpoint_id', filter.endpointId],
      ['client_id', filter.clientId],
    ].filter((pair): pair is [string, string] => pair[1] !== undefined);
    const where = columns.length === 0 ? '' : `WHERE ${columns.map(([column], i) => `${column} = $${i + 1}`).join(' AND ')}`;
    return this.docs(`SELECT doc FROM webhook_deliveries ${where} ORDER BY seq`, columns.map(([, value]) => value));
  }

  async pageDeliveries<F extends ListFamily>(clientId: string, request: ListRequest<F>, filter?: (delivery: DeliveryFacets) => boolean): Promise<ListedPage<DeliveryRecord, F>> {
    const { rows } = await this.pool.query<LogHead<DeliveryFacets>>(
      `SELECT id, doc::jsonb ->> 'status' AS "status", event_id AS "eventId", endpoint_id AS "endpointId", (doc::jsonb -> 'createdAt' ->> $2)::float8 AS "createdAtMs"
       FROM webhook_deliveries WHERE client_id = $1`,
      [clientId, dateTag],
    );
    return pageOfHeads(rows, request, filter, async (ids) =>
      inOrderOf(ids, await this.docs<DeliveryRecord>('SELECT doc FROM webhook_deliveries WHERE id = ANY($1)', [ids]), (delivery) => delivery.id),
    );
  }

  dueDeliveries(now: Date, limit: number): Promise<DeliveryRecord[]> {
    return this.docs('SELECT doc FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= $1 ORDER BY next_attempt_at, queue_seq LIMIT $2', [
      now.getTime(),
      limit,
    ]);
  }

  async claimDue(now: Date, limit: number, lease: { nowMs: number; untilMs: number }): Promise<ClaimedDelivery[]> {
    // SKIP LOCKED: rows another replica is claiming right now are passed over, not waited for.
    const { rows } = await this.pool.query<Doc & { next_attempt_at: string; queue_seq: string; previous_lease: string | null }>(
      `WITH due AS (
         SELECT id, lease_until AS previous_lease FROM webhook_deliveries
         WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $2)
         ORDER BY next_attempt_at, queue_seq LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries AS claimed SET lease_until = $4 FROM due WHERE claimed.id = due.id
       RETURNING claimed.doc, claimed.next_attempt_at, claimed.queue_seq, due.previous_lease`,
      [now.getTime(), lease.nowMs, limit, lease.untilMs],
    );
    rows.sort((a, b) => Number(a.next_attempt_at) - Number(b.next_attempt_at) || Number(a.queue_seq) - Number(b.queue_seq));
    return rows.map((row) => ({ delivery: decodeRecord<DeliveryRecord>(row.doc), lostClaim: row.previous_lease !== null }));
  }

  async releaseClaims(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.pool.query('UPDATE webhook_deliveries SET lease_until = NULL WHERE id = ANY($1)', [ids]);
  }

  async queuedCount(): Promise<number> {
    return Number((await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL')).rows[0]?.n ?? 0);
  }

  async clear(): Promise<void> {
    await this.pool.query('TRUNCATE webhook_endpoints, webhook_events, webhook_deliveries');
  }
}
