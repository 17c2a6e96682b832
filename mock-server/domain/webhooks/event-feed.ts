// The webhook events of one mock as they are emitted, for followers (the control API's event
// stream behind `exchange-api-kit listen`): each event with its deliveries gets the next
// sequence number, goes to every subscriber at once, and stays in a bounded backlog so a
// follower that reconnects can ask for what it missed. Owned by the sandbox, so it outlives the
// webhook engine a reset replaces; in-process only (a follower of one replica sees its events).
// An item keeps only what a follower is sent: the event's body carries its payload as text, so
// the payload's objects (an order's whole presentation) are not kept a second time; a full
// backlog of order events holds about 1.4 MB rather than about 3.5 MB.
import type { DeliveryRecord, EventRecord } from '../../store/records/webhook-records.js';

export type FeedEvent = Pick<EventRecord, 'id' | 'clientId' | 'type' | 'body' | 'createdAt'>;
export type FeedDelivery = Pick<DeliveryRecord, 'id' | 'endpointId'>;

export interface FeedItem {
  sequence: number;
  event: FeedEvent;
  deliveries: FeedDelivery[];
}

export type FeedListener = (item: FeedItem) => void;

/** Items the backlog keeps by default: a reconnecting follower gets at most these. */
export const webhookFeedCapacity = 1000;

export class WebhookFeed {
  private readonly backlog: FeedItem[] = [];
  private readonly listeners = new Set<FeedListener>();
  private lastSequence = 0;

  constructor(private readonly capacity = webhookFeedCapacity) {}

  publish(event: FeedEvent, deliveries: readonly FeedDelivery[]): void {
    const item: FeedItem = {
      sequence: (this.lastSequence += 1),
      event: { id: event.id, clientId: event.clientId, type: event.type, body: event.body, createdAt: event.createdAt },
      deliveries: deliveries.map(({ id, endpointId }) => ({ id, endpointId })),
    };
    this.backlog.push(item);
    if (this.backlog.length > this.capacity) this.backlog.shift();
    for (const listener of this.listeners) listener(item);
  }

  /** The kept items after `sequence`, oldest first. */
  since(sequence: number): FeedItem[] {
    return this.backlog.filter((item) => item.sequence > sequence);
  }

  /** Calls `listener` with every item published from now on; returns the unsubscribe. */
  subscribe(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
