// The SQLite engine's webhook records: endpoints, events and deliveries as JSON documents, with
// the columns lists and the due queue are read by (client, event, endpoint, next attempt).
import type { Database, Statement } from 'better-sqlite3';
import type { DeliveryRecord, EndpointRecord, EventRecord } from '../records/webhook-records.js';
import type { ListedPage } from '../list-records.js';
import type { ListFamily, ListRequest } from '../list-query.js';
import { pageOfHeads, type LogHead } from '../log-pages.js';
import type { ClaimedDelivery, DeliveryFacets, DeliveryFilter, EventFacets, WebhookStore } from '../webhook-store.js';
import { dateTag, decodeRecord, encodeRecord } from '../record-codec.js';

type Doc = { doc: string };

/** Where a record's creation instant (a tagged Date, record-codec.ts) is in its document: json_extract's path. */
const createdAtPath = `$.createdAt."${dateTag}"`;

export class SqliteWebhookStore implements WebhookStore {
  private readonly statements;
  private readonly claimTx;
  private readonly releaseTx;

  constructor(private readonly db: Database) {
    const docs = (sql: string) => db.prepare<unknown[], Doc>(sql);
    this.statements = {
      saveEndpoint: db.prepare('INSERT INTO webhook_endpoints (id, client_id, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc'),
      getEndpoint: docs('SELECT doc FROM webhook_endpoints WHERE id = ?'),
      deleteEndpoint: db.prepare('DELETE FROM webhook_endpoints WHERE id = ?'),
      listEndpoints: docs('SELECT doc FROM webhook_endpoints WHERE client_id = ? ORDER BY rowid'),
      listAllEndpoints: docs('SELECT doc FROM webhook_endpoints ORDER BY rowid'),
      countEndpoints: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM webhook_endpoints WHERE client_id = ?'),
      saveEvent: db.prepare('INSERT INTO webhook_events (id, client_id, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc'),
      getEvent: docs('SELECT doc FROM webhook_events WHERE id = ?'),
      listEvents: docs('SELECT doc FROM webhook_events ORDER BY rowid'),
      eventHeads: db.prepare<[string, string], LogHead<EventFacets>>(
        "SELECT id, json_extract(doc, '$.type') AS type, json_extract(doc, ?) AS createdAtMs FROM webhook_events WHERE client_id = ? ORDER BY rowid",
      ),
      deliveryHeads: db.prepare<[string, string], LogHead<DeliveryFacets>>(
        `SELECT id, json_extract(doc, '$.status') AS status, event_id AS eventId, endpoint_id AS endpointId, json_extract(doc, ?) AS createdAtMs
         FROM webhook_deliveries WHERE client_id = ? ORDER BY rowid`,
      ),
      saveDelivery: db.prepare(
        `INSERT INTO webhook_deliveries (id, client_id, event_id, endpoint_id, next_attempt_at, queue_seq, doc)
         VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(queue_seq), 0) + 1 FROM webhook_deliveries), ?)
         ON CONFLICT (id) DO UPDATE SET next_attempt_at = excluded.next_attempt_at, queue_seq = excluded.queue_seq, doc = excluded.doc, lease_until = NULL`,
      ),
      getDelivery: docs('SELECT doc FROM webhook_deliveries WHERE id = ?'),
      dueDeliveries: docs('SELECT doc FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, queue_seq LIMIT ?'),
      queuedCount: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL'),
      claimable: db.prepare<[number, number, number], Doc & { id: string; lease_until: number | null }>(
        'SELECT id, doc, lease_until FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?) ORDER BY next_attempt_at, queue_seq LIMIT ?',
      ),
      lease: db.prepare<[number | null, string]>('UPDATE webhook_deliveries SET lease_until = ? WHERE id = ?'),
    };
    this.claimTx = db.transaction((nowMs: number, limit: number, lease: { nowMs: number; untilMs: number }) => {
      const rows = this.statements.claimable.all(nowMs, lease.nowMs, limit);
      for (const row of rows) this.statements.lease.run(lease.untilMs, row.id);
      return rows.map((row): ClaimedDelivery => ({ delivery: decodeRecord<DeliveryRecord>(row.doc), lostClaim: row.lease_until !== null }));
    });
    this.releaseTx = db.transaction((ids: readonly string[]) => {
      for (const id of ids) this.statements.lease.run(null, id);
    });
  }

  async saveEndpoint(endpoint: EndpointRecord): Promise<void> {
    this.statements.saveEndpoint.run(endpoint.id, endpoint.clientId, encodeRecord(endpoint));
  }

  async getEndpoint(id: string): Promise<EndpointRecord | undefined> {
    return one(this.statements.getEndpoint, id);
  }

  async deleteEndpoint(id: string): Promise<boolean> {
    return this.statements.deleteEndpoint.run(id).changes > 0;
  }

  async listEndpoints(clientId?: string): Promise<EndpointRecord[]> {
    return clientId === undefined ? all(this.statements.listAllEndpoints) : all(this.statements.listEndpoints, clientId);
  }

  async countEndpoints(clientId: string): Promise<number> {
    return this.statements.countEndpoints.get(clientId)?.n ?? 0;
  }

  async saveEvent(event: EventRecord): Promise<void> {
    this.statements.saveEvent.run(event.id, event.clientId, encodeRecord(event));
  }

  async getEvent(id: string): Promise<EventRecord | undefined> {
    return one(this.statements.getEvent, id);
  }

  async listEvents(): Promise<EventRecord[]> {
    return all(this.statements.listEvents);
  }

  pageEvents<F extends ListFamily>(clientId: string, request: ListRequest<F>, filter?: (event: EventFacets) => boolean): Promise<ListedPage<EventRecord, F>> {
    return pageOfHeads(this.statements.eventHeads.iterate(createdAtPath, clientId), request, filter, async (ids) =>
      ids.flatMap((id) => one<EventRecord>(this.statements.getEvent, id) ?? []),
    );
  }

  async saveDelivery(delivery: DeliveryRecord): Promise<void> {
    const { id, clientId, eventId, endpointId, nextAttemptAt } = delivery;
    this.statements.saveDelivery.run(id, clientId, eventId, endpointId, nextAttemptAt?.getTime() ?? null, encodeRecord(delivery));
  }

  async getDelivery(id: string): Promise<DeliveryRecord | undefined> {
    return one(this.statements.getDelivery, id);
  }

  async listDeliveries(filter: DeliveryFilter): Promise<DeliveryRecord[]> {
    // The most selective given column leads; the query is built from fixed column names only.
    const columns = [
      ['event_id', filter.eventId],
      ['endpoint_id', filter.endpointId],
      ['client_id', filter.clientId],
    ].filter((pair): pair is [string, string] => pair[1] !== undefined);
    const where = columns.length === 0 ? '' : `WHERE ${columns.map(([column]) => `${column} = ?`).join(' AND ')}`;
    const rows = this.db.prepare<string[], Doc>(`SELECT doc FROM webhook_deliveries ${where} ORDER BY rowid`).all(...columns.map(([, value]) => value));
    return rows.map((row) => decodeRecord<DeliveryRecord>(row.doc));
  }

  pageDeliveries<F extends ListFamily>(clientId: string, request: ListRequest<F>, filter?: (delivery: DeliveryFacets) => boolean): Promise<ListedPage<DeliveryRecord, F>> {
    return pageOfHeads(this.statements.deliveryHeads.iterate(createdAtPath, clientId), request, filter, async (ids) =>
      ids.flatMap((id) => one<DeliveryRecord>(this.statements.getDelivery, id) ?? []),
    );
  }

  async dueDeliveries(now: Date, limit: number): Promise<DeliveryRecord[]> {
    return all(this.statements.dueDeliveries, now.getTime(), limit);
  }

  async claimDue(now: Date, limit: number, lease: { nowMs: number; untilMs: number }): Promise<ClaimedDelivery[]> {
    return this.claimTx.immediate(now.getTime(), limit, lease);
  }

  async releaseClaims(ids: readonly string[]): Promise<void> {
    this.releaseTx(ids);
  }

  async queuedCount(): Promise<number> {
    return this.statements.queuedCount.get()?.n ?? 0;
  }

  async clear(): Promise<void> {
    this.clearNow();
  }

  /** Deletes every webhook record at once, inside the caller's transaction if there is one. */
  clearNow(): void {
    this.db.exec('DELETE FROM webhook_endpoints; DELETE FROM webhook_events; DELETE FROM webhook_deliveries;');
  }
}

function one<T>(statement: Statement<unknown[], Doc>, ...params: unknown[]): T | undefined {
  const row = statement.get(...params);
  return row === undefined ? undefined : decodeRecord<T>(row.doc);
}

function all<T>(statement: Statement<unknown[], Doc>, ...params: unknown[]): T[] {
  return statement.all(...params).map((row) => decodeRecord<T>(row.doc));
}
