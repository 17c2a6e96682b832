// The webhook events of one mock as they are emitted, for followers (the control API's event
// stream behind `exchange-api-kit listen`): each event with its deliveries gets the next
// sequence number, goes to every subscriber at once, and stays in a bounded backlog so a
// follower that reconnects can ask for what it missed. Owned by the sandbox, so it outlives the
// webhook engine a reset replaces; in-process only (a follower of one replica sees its events).
import type { DeliveryRecord, EventRecord } from '../../store/records/webhook-records.js';

export interface FeedItem {
  sequence: number;
  event: EventRecord;
  deliveries: DeliveryRecord[];
}

export type FeedListener = (item: FeedItem) => void;

export class WebhookFeed {
  private readonly backlog: FeedItem[] = [];
  private readonly listeners = new Set<FeedListener>();
  private lastSequence = 0;

  constructor(private readonly capacity = 1000) {}

  publish(event: EventRecord, deliveries: readonly DeliveryRecord[]): void {
    const item: FeedItem = { sequence: (this.lastSequence += 1), event, deliveries: [...deliveries] };
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
