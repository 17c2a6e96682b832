// The webhook events of one mock as they are emitted, for followers (the control API's event
// stream behind `exchange-api-kit listen`): each event with its deliveries gets the next
// sequence number, goes to every subscriber at once, and stays in a bounded backlog so a
// follower that reconnects can ask for what it missed. Owned by the sandbox, so its subscribers
// outlive the webhook engine a reset replaces; in-process only (a follower of one replica sees
// its events).
//
// Each sandbox (the one a start builds, and each reset or load after it) publishes through a
// channel of its own, with a stream id drawn for it and sequences from 1. Installing a sandbox's
// channel drops the backlog of the one before, and a replaced sandbox's channel publishes
// nothing more, so no follower hears an old sandbox's events after a reset. A follower's last
// position names its stream: one of another stream (an old sandbox's, another mock process's
// after a restart, or a bare number) gets the current sandbox's backlog from its start, so it
// neither hears old events nor skips new ones whose numbers it happened to have seen.
//
// An item keeps only what a follower is sent: the event's body carries its payload as text, so
// the payload's objects (an order's whole presentation) are not kept a second time; a full
// backlog of order events holds about 1.4 MB rather than about 3.5 MB.
import type { DeliveryRecord, EventRecord } from '../../store/records/webhook-records.js';

export type FeedEvent = Pick<EventRecord, 'id' | 'clientId' | 'type' | 'body' | 'createdAt'>;
export type FeedDelivery = Pick<DeliveryRecord, 'id' | 'endpointId'>;

export interface FeedItem {
  /** `<stream>-<sequence>`: the item's place among every sandbox's events (the SSE `id:`). */
  position: string;
  /** 1 for a sandbox's first event, then one more per event. */
  sequence: number;
  event: FeedEvent;
  deliveries: FeedDelivery[];
}

export type FeedListener = (item: FeedItem) => void;

/** Where one sandbox's webhook service announces its events. */
export interface FeedChannel {
  /** The sandbox's stream, the first part of its items' positions. */
  readonly streamId: string;
  publish(event: FeedEvent, deliveries: readonly FeedDelivery[]): void;
}

/** Items the backlog keeps by default: a reconnecting follower gets at most these. */
export const webhookFeedCapacity = 1000;

export class WebhookFeed {
  private backlog: FeedItem[] = [];
  private readonly listeners = new Set<FeedListener>();
  private current: FeedChannel | null = null;

  /**
   * `drawStreamId` gives each sandbox's stream an id no earlier stream of this or another mock
   * process had (random, not from the seed: two runs with one seed must not share it).
   */
  constructor(
    private readonly drawStreamId: () => string,
    private readonly capacity = webhookFeedCapacity,
  ) {}

  /** A channel for a sandbox being built: what it publishes reaches followers once `install` made it the current one. */
  channel(): FeedChannel {
    const streamId = this.drawStreamId();
    let lastSequence = 0;
    const channel: FeedChannel = {
      streamId,
      publish: (event, deliveries) => {
        // A sandbox not installed yet, or replaced since: its events are no follower's.
        if (this.current !== channel) return;
        lastSequence += 1;
        this.append({
          position: `${streamId}-${lastSequence}`,
          sequence: lastSequence,
          event: { id: event.id, clientId: event.clientId, type: event.type, body: event.body, createdAt: event.createdAt },
          deliveries: deliveries.map(({ id, endpointId }) => ({ id, endpointId })),
        });
      },
    };
    return channel;
  }

  /** Makes `channel` (from channel()) the current sandbox's; the sandbox before it is heard no more, its backlog dropped. */
  install(channel: FeedChannel): void {
    this.current = channel;
    this.backlog = [];
  }

  /**
   * The kept items a follower whose last item was at `position` has not had, oldest first: those
   * after it when it is of the current stream, otherwise the current sandbox's whole backlog.
   */
  after(position: string): FeedItem[] {
    const cut = position.lastIndexOf('-');
    if (this.current === null || position.slice(0, Math.max(cut, 0)) !== this.current.streamId) return [...this.backlog];
    const sequence = Number(position.slice(cut + 1));
    return this.backlog.filter((item) => item.sequence > sequence);
  }

  /** Whether `item` is of the current sandbox (one a follower has queued may have been replaced since). */
  isCurrent(item: FeedItem): boolean {
    return this.current !== null && item.position === `${this.current.streamId}-${item.sequence}`;
  }

  /** Calls `listener` with every item published from now on; returns the unsubscribe. */
  subscribe(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private append(item: FeedItem): void {
    this.backlog.push(item);
    if (this.backlog.length > this.capacity) this.backlog.shift();
    for (const listener of this.listeners) listener(item);
  }
}
