// Where the webhook engine's endpoints, events and deliveries live (a part of the storage port).
// The due queue is an index of the deliveries' `nextAttemptAt`, kept by the store itself: a
// durable engine resumes it after a restart with no timer state to rebuild.
import type { ListedPage } from './list-records.js';
import type { ListFamily, ListRequest } from './list-query.js';
import type { DeliveryRecord, EndpointRecord, EventRecord } from './records/webhook-records.js';

export interface DeliveryFilter {
  clientId?: string;
  eventId?: string;
  endpointId?: string;
}

/** What a client's list of events is filtered by (GET /webhooks/events). */
export type EventFacets = Pick<EventRecord, 'type'>;
/** What a client's list of deliveries is filtered by (GET /webhooks/deliveries). */
export type DeliveryFacets = Pick<DeliveryRecord, 'status' | 'eventId' | 'endpointId'>;

/**
 * One page of a client's log (its events or its deliveries): both are sorted by creation only
 * (`created_at`, ties by id). An engine reads whole records for the page alone, and reads no other
 * client's records.
 */
export type LogPage<R, Facets> = <F extends ListFamily>(clientId: string, request: ListRequest<F>, filter?: (record: Facets) => boolean) => Promise<ListedPage<R, F>>;

export interface ClaimedDelivery {
  delivery: DeliveryRecord;
  /**
   * An earlier claimant's lease of it ran out before an attempt was recorded: that claimant
   * stopped (a replica killed mid-delivery), and its receiver may or may not have the attempt.
   */
  lostClaim: boolean;
}

export interface WebhookStore {
  saveEndpoint(endpoint: EndpointRecord): Promise<void>;
  getEndpoint(id: string): Promise<EndpointRecord | undefined>;
  deleteEndpoint(id: string): Promise<boolean>;
  /** A client's endpoints, oldest first; every client's when no client is given (snapshots). */
  listEndpoints(clientId?: string): Promise<EndpointRecord[]>;
  countEndpoints(clientId: string): Promise<number>;

  saveEvent(event: EventRecord): Promise<void>;
  getEvent(id: string): Promise<EventRecord | undefined>;
  /** Every client's events, oldest first (snapshots, the inspector). */
  listEvents(): Promise<EventRecord[]>;
  pageEvents: LogPage<EventRecord, EventFacets>;

  /** Stores the delivery and (re)places it in the due queue by its `nextAttemptAt`. */
  saveDelivery(delivery: DeliveryRecord): Promise<void>;
  getDelivery(id: string): Promise<DeliveryRecord | undefined>;
  /** Deliveries matching every given field, oldest first. */
  listDeliveries(filter: DeliveryFilter): Promise<DeliveryRecord[]>;
  pageDeliveries: LogPage<DeliveryRecord, DeliveryFacets>;
  /**
   * Up to `limit` deliveries whose next attempt is due at `now`, earliest first (ties in the
   * order they were queued). Reading does not dequeue: recording the attempt moves them.
   */
  dueDeliveries(now: Date, limit: number): Promise<DeliveryRecord[]>;
  /**
   * Claims up to `limit` deliveries due at `now` (virtual time) that no claimant holds, earliest
   * first, each leased until `lease.untilMs` (real time: a frozen virtual clock must not keep a
   * dead replica's lease alive). Another claimant passes over them until the lease runs out or
   * the attempt is recorded (saving a delivery ends its lease): each attempt is made by one
   * replica, and a second only after a lease ran out.
   */
  claimDue(now: Date, limit: number, lease: { nowMs: number; untilMs: number }): Promise<ClaimedDelivery[]>;
  /** Ends the claimant's leases of deliveries it claimed but did not attempt: others may claim them at once. */
  releaseClaims(ids: readonly string[]): Promise<void>;
  /** Deliveries in the due queue (due now or later). */
  queuedCount(): Promise<number>;

  clear(): Promise<void>;
}

