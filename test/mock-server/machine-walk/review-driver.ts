// The review machine: a review of a completed order (created and driven to completed through the
// exchange API and the control API), published or rejected by staff through the control API.
import type { Review } from '../../../generated/exchange-v3/types.js';
import type { ReviewMachineEvent } from '../../../generated/sandbox-control/types.js';
import { btcToUsdtOrder } from '../support/exchange-order.js';
import type { AnyTransition, MachineDriver } from './driver.js';

export const reviewDriver: MachineDriver<Review> = {
  async create({ server }) {
    const order = await btcToUsdtOrder(server, server.v3);
    const text = 'Quick and clear, the coins came within a quarter of an hour.';
    return (await server.v3.createReview({ body: { order: order.public_id, rating: 5, text, author_name: 'Walker' } })).body.result.review;
  },

  async fire({ server }, review, step: AnyTransition) {
    await server.control.moderateReview({ path: { review: review.id }, body: { decision: step.event as ReviewMachineEvent } });
  },

  // The review's order emits its order.* events; a review itself emits none (no resource of type review).
  about: (_review, received) => received.filter((w) => (w.body.resource as { type?: string } | undefined)?.type === 'review').map((w) => w.type),

  async status({ server }, review) {
    const reviews = (await server.v3.listReviews({ query: { per_page: 100 } })).body.result.reviews;
    return reviews.find((r) => r.id === review.id)?.status ?? null;
  },
};
