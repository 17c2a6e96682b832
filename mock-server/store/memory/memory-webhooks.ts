// The memory engine's webhook records. Records are copied in and out, as a durable engine would.
import type { DeliveryRecord, EndpointRecord, EventRecord } from '../records/webhook-records.js';
import { listRecords, type ListedPage } from '../list-records.js';
import type { ListFamily, ListRequest } from '../list-query.js';
import { clientScope, logCollection } from '../log-pages.js';
import { ShardedMap } from '../sharded-map.js';
import type { ClaimedDelivery, DeliveryFacets, DeliveryFilter, EventFacets, WebhookStore } from '../webhook-store.js';
import { packEvent, unpackEvent, type PackedEvent } from './packed-event.js';

interface QueueEntry {
  at: number;
  seq: number;
  id: string;
}

export class MemoryWebhookStore implements WebhookStore {
  private readonly endpoints = new Map<string, EndpointRecord>();
  /**
   * Packed (packed-event.ts): a sandbox keeps one per order it ever created. Events and deliveries
   * are kept listable by client (log-pages.ts): a client's page reads its own records only.
   */
  private readonly events = logCollection<PackedEvent>(
    (event) => event.id,
    (event) => event.createdAtMs,
    { clientOf: (event) => event.clientId, list: 'listWebhookEvents' },
  );
  private readonly deliveries = logCollection<DeliveryRecord>(
    (delivery) => delivery.id,
    (delivery) => delivery.createdAt.getTime(),
    { clientOf: (delivery) => delivery.clientId, list: 'listWebhookDeliveries' },
  );
  /** Event id → its deliveries' ids, oldest first: an event's roll-up reads them after every attempt. */
  private readonly byEvent = new ShardedMap<string, string[]>();
  // Sorted by (at, seq); `queued` finds a delivery's entry to move or remove it.
  private readonly queue: QueueEntry[] = [];
  private readonly queued = new Map<string, QueueEntry>();
  /** Delivery id → end of its lease (real ms). */
  private readonly leases = new Map<string, number>();
  private seq = 0;

  async saveEndpoint(endpoint: EndpointRecord): Promise<void> {
    this.endpoints.set(endpoint.id, structuredClone(endpoint));
  }

  async getEndpoint(id: string): Promise<EndpointRecord | undefined> {
    return copy(this.endpoints.get(id));
  }

  async deleteEndpoint(id: string): Promise<boolean> {
    return this.endpoints.delete(id);
  }

  async listEndpoints(clientId?: string): Promise<EndpointRecord[]> {
    return [...this.endpoints.values()].filter((e) => clientId === undefined || e.clientId === clientId).map((e) => structuredClone(e));
  }

  async countEndpoints(clientId: string): Promise<number> {
    let count = 0;
    for (const endpoint of this.endpoints.values()) if (endpoint.clientId === clientId) count += 1;
    return count;
  }

  async saveEvent(event: EventRecord): Promise<void> {
    const packed = packEvent(event);
    // Keyed by the packed record's own (flat) id: one copy of the id, not two.
    this.events.upsert(packed);
  }

  async getEvent(id: string): Promise<EventRecord | undefined> {
    const packed = this.events.get(id);
    return packed === undefined ? undefined : unpackEvent(packed);
  }

  async listEvents(): Promise<EventRecord[]> {
    return [...this.events.values()].map(unpackEvent);
  }

  async pageEvents<F extends ListFamily>(clientId: string, request: ListRequest<F>, filter?: (event: EventFacets) => boolean): Promise<ListedPage<EventRecord, F>> {
    const page = listRecords(this.events, request, filter, clientScope(clientId));
    return { items: page.items.map(unpackEvent), meta: page.meta };
  }

  async saveDelivery(delivery: DeliveryRecord): Promise<void> {
    if (this.deliveries.get(delivery.id) === undefined) {
      const ofEvent = this.byEvent.get(delivery.eventId);
      if (ofEvent === undefined) this.byEvent.set(delivery.eventId, [delivery.id]);
      else ofEvent.push(delivery.id);
    }
    this.deliveries.upsert(structuredClone(delivery));
    this.leases.delete(delivery.id);
    this.unqueue(delivery.id);
    if (delivery.nextAttemptAt !== null) this.enqueue(delivery.id, delivery.nextAttemptAt.getTime());
  }

  async getDelivery(id: string): Promise<DeliveryRecord | undefined> {
    return copy(this.deliveries.get(id));
  }

  async listDeliveries(filter: DeliveryFilter): Promise<DeliveryRecord[]> {
    const out: DeliveryRecord[] = [];
    const candidates = filter.eventId === undefined ? this.deliveries.values() : (this.byEvent.get(filter.eventId) ?? []).map((id) => this.deliveries.get(id)!);
    for (const d of candidates) {
      if (filter.clientId !== undefined && d.clientId !== filter.clientId) continue;
      if (filter.eventId !== undefined && d.eventId !== filter.eventId) continue;
      if (filter.endpointId !== undefined && d.endpointId !== filter.endpointId) continue;
      out.push(structuredClone(d));
    }
    return out;
  }

  async pageDeliveries<F extends ListFamily>(clientId: string, request: ListRequest<F>, filter?: (delivery: DeliveryFacets) => boolean): Promise<ListedPage<DeliveryRecord, F>> {
    const page = listRecords(this.deliveries, request, filter, clientScope(clientId));
    return { items: page.items.map((delivery) => structuredClone(delivery)), meta: page.meta };
  }

  async dueDeliveries(now: Date, limit: number): Promise<DeliveryRecord[]> {
    const nowMs = now.getTime();
    const out: DeliveryRecord[] = [];
    for (const entry of this.queue) {
      if (entry.at > nowMs || out.length >= limit) break;
      const delivery = this.deliveries.get(entry.id);
      if (delivery !== undefined) out.push(structuredClone(delivery));
    }
    return out;
  }

  async claimDue(now: Date, limit: number, lease: { nowMs: number; untilMs: number }): Promise<ClaimedDelivery[]> {
    const nowMs = now.getTime();
    const out: ClaimedDelivery[] = [];
    for (const entry of this.queue) {
      if (entry.at > nowMs || out.length >= limit) break;
      const leased = this.leases.get(entry.id);
      if (leased !== undefined && leased > lease.nowMs) continue;
      const delivery = this.deliveries.get(entry.id);
      if (delivery === undefined) continue;
      this.leases.set(entry.id, lease.untilMs);
      out.push({ delivery: structuredClone(delivery), lostClaim: leased !== undefined });
    }
    return out;
  }

  async releaseClaims(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.leases.delete(id);
  }

  async queuedCount(): Promise<number> {
    return this.queue.length;
  }

  async clear(): Promise<void> {
    this.endpoints.clear();
    this.events.clear();
    this.deliveries.clear();
    this.byEvent.clear();
    this.queue.length = 0;
    this.queued.clear();
    this.leases.clear();
  }

  private enqueue(id: string, at: number): void {
    const entry: QueueEntry = { at, seq: (this.seq += 1), id };
    this.queue.splice(this.indexOf(entry), 0, entry);
    this.queued.set(id, entry);
  }

  private unqueue(id: string): void {
    const entry = this.queued.get(id);
    if (entry === undefined) return;
    this.queued.delete(id);
    const index = this.indexOf(entry);
    if (this.queue[index] === entry) this.queue.splice(index, 1);
  }

  /** Binary search: the first position whose entry does not sort before `entry`. */
  private indexOf(entry: QueueEntry): number {
    let low = 0;
    let high = this.queue.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = this.queue[mid];
      if (other !== undefined && (other.at < entry.at || (other.at === entry.at && other.seq < entry.seq))) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

function copy<T>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : structuredClone(value);
}
