// Reviews: one moderated review per completed order of a client (the review machine: staff publish
// or reject it through the control API), listed with the client's other reviews. The default client starts with a seeded history of imported reviews (no order, some
// published, some waiting, some rejected), so the list, its filters and sorts show something
// before the first order completes. A reset seeds them again; a snapshot replaces them all.
import type { Review, ReviewStatus } from '../../../generated/exchange-v3/types.js';
import { reviewMachine, type ReviewEvent, type ReviewState } from '../../../generated/machines.js';
import type { SandboxStateExchangeReviews } from '../../../generated/sandbox-control/types.js';
import type { Clock } from '../../clock.js';
import type { Random } from '../../random.js';
import { ListableCollection, match, type FilterMatcher } from '../../store/list-records.js';
import { key } from '../../store/sort-keys.js';
import { tryFire, type FireResult } from '../machines/fire.js';
import { requireOneOf, StateRejected } from '../state-rejected.js';
import { requireNextIdAbove } from './restore-checks.js';
import type { RecordMarks } from '../record-marks.js';

export interface ReviewRecord {
  id: number;
  clientId: string;
  orderPublicId: string | null;
  rating: number;
  text: string;
  authorName: string;
  status: ReviewStatus;
  createdAt: Date;
}

/** A new review waits for staff: the review machine's initial state. */
const newReviewStatus: ReviewStatus = reviewMachine.initial;

const seededCount = 12;
const seededStatuses: ReviewStatus[] = ['published', 'published', 'published', 'pending_moderation', 'rejected'];
const authors = ['Ivan P.', 'Maria K.', 'Alex', 'Dmitry S.', 'Olga', 'John D.', 'Sergey V.', 'Anna L.'];
const texts: Record<number, string[]> = {
  5: ['Fast exchange, the USDT arrived twelve minutes after payment.', 'Quick and clear, the coins came within a quarter of an hour.', 'Third exchange here, always on time and at the quoted rate.'],
  4: ['Good rate and polite support, the payout took about forty minutes.', 'Everything fine, the card verification took a little while.'],
  3: ['The exchange went through but the payout was an hour late.', 'Rate was fair, support answered slowly during the night.'],
  2: ['Had to send the card photo twice before the order was released.'],
  1: ['The order stayed in processing for a whole day before support replied.'],
};

export const reviewMatchers: Record<string, FilterMatcher<ReviewRecord>> = {
  status: match.oneOf((r) => r.status),
  rating_min: (r, bound) => typeof bound === 'number' && r.rating >= bound,
  rating_max: (r, bound) => typeof bound === 'number' && r.rating <= bound,
};

export class ReviewBook {
  /** Every client's reviews; the sort fields are the contract's ReviewSort fields. */
  readonly collection = new ListableCollection<ReviewRecord>({
    id: key.number((r) => r.id),
    fields: { created_at: key.number((r) => r.createdAt.getTime()), rating: key.number((r) => r.rating) },
  });
  private readonly byOrder = new Set<string>();
  private nextId = 1;

  constructor(
    private readonly clock: Clock,
    private readonly marks: RecordMarks,
  ) {}

  /** Any client's review (the control API). */
  find(id: number): ReviewRecord | undefined {
    return this.collection.get(id);
  }

  /** Staff publish or reject a review (contracts/machines/review.yaml); the machine's reason when it refuses. */
  moderate(review: ReviewRecord, event: ReviewEvent): FireResult<ReviewState, ReviewEvent> {
    const fired = tryFire(reviewMachine, review.status, event);
    if (fired.ok) {
      review.status = fired.transition.to;
      this.collection.upsert(review);
      this.marks.changed('review', String(review.id));
    }
    return fired;
  }

  /** Whether the order (one client's, by public_id) already has its review. */
  hasReview(orderPublicId: string): boolean {
    return this.byOrder.has(orderPublicId);
  }

  create(input: Omit<ReviewRecord, 'id' | 'status' | 'createdAt'>, status: ReviewStatus = newReviewStatus, createdAt: Date = this.clock.now()): ReviewRecord {
    const review: ReviewRecord = { ...input, id: this.nextId, status, createdAt };
    this.nextId += 1;
    this.collection.upsert(review);
    this.marks.changed('review', String(review.id));
    if (review.orderPublicId !== null) this.byOrder.add(review.orderPublicId);
    return review;
  }

  /** The reviews as a snapshot holds them; `withRecords` false: the reviews left out (a journal's header). */
  exportState(withRecords = true): SandboxStateExchangeReviews {
    return { nextId: this.nextId, reviews: withRecords ? [...this.collection.values()].map(reviewState) : [] };
  }

  /** One review as exportState lists it; undefined when there is none. */
  exportRecord(id: string): SandboxStateExchangeReviews['reviews'][number] | undefined {
    const review = this.collection.get(Number(id));
    return review === undefined ? undefined : reviewState(review);
  }

  /**
   * Replaces the reviews with the snapshot's; throws StateRejected for a duplicate id, an unknown
   * client, a status the review machine lacks, or an order that is not the client's or has
   * another review. `clientOfOrder` gives the client of an order by public id (restored first).
   */
  restoreState(
    state: SandboxStateExchangeReviews,
    requireClient: (clientId: string, pointer: string) => void,
    clientOfOrder: (publicId: string) => string | undefined,
    pointer: string,
  ): void {
    this.collection.clear();
    this.byOrder.clear();
    state.reviews.forEach(({ createdAtMs, ...review }, index) => {
      const at = `${pointer}/reviews/${index}`;
      if (this.collection.get(review.id) !== undefined) throw new StateRejected(`${at}/id`, `review ${review.id} is listed twice`);
      requireClient(review.clientId, `${at}/clientId`);
      const { orderPublicId } = review;
      if (orderPublicId !== null && clientOfOrder(orderPublicId) !== review.clientId) throw new StateRejected(`${at}/orderPublicId`, `${orderPublicId} is not an order of client ${review.clientId}`);
      if (orderPublicId !== null && this.byOrder.has(orderPublicId)) throw new StateRejected(`${at}/orderPublicId`, `order ${orderPublicId} has another review`);
      const status = requireOneOf(review.status, reviewMachine.states, `${at}/status`);
      this.collection.upsert({ ...review, status, createdAt: new Date(createdAtMs) });
      if (orderPublicId !== null) this.byOrder.add(orderPublicId);
    });
    requireNextIdAbove(state.nextId, state.reviews, `${pointer}/nextId`);
    this.nextId = state.nextId;
  }

  /** The seeded history of imported reviews of one client, over the past months. */
  seed(clientId: string, random: Random): void {
    const now = this.clock.nowMs();
    const ages = Array.from({ length: seededCount }, () => random.int(1, 180 * 24 * 3600)).sort((a, b) => b - a);
    for (const age of ages) {
      const rating = random.next() < 0.6 ? 5 : random.int(1, 4);
      const pool = texts[rating]!;
      this.create(
        { clientId, orderPublicId: null, rating, text: pool[random.int(0, pool.length - 1)]!, authorName: authors[random.int(0, authors.length - 1)]! },
        seededStatuses[random.int(0, seededStatuses.length - 1)]!,
        new Date(now - age * 1000),
      );
    }
  }
}

export function reviewView(review: ReviewRecord): Review {
  return {
    id: review.id,
    order_public_id: review.orderPublicId,
    rating: review.rating,
    text: review.text,
    author_name: review.authorName,
    status: review.status,
    created_at: review.createdAt.toISOString(),
  };
}

function reviewState({ createdAt, ...review }: ReviewRecord): SandboxStateExchangeReviews['reviews'][number] {
  return { ...review, createdAtMs: createdAt.getTime() };
}
