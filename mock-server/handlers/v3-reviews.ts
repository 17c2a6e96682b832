// GET and POST /private/reviews: the client's reviews (filters by status and rating, sorted by
// date or rating, page and cursor), and a new review of one of its completed orders.
import type { ExchangeV3Handlers } from '../../generated/exchange-v3/routes.js';
import { reviewMatchers, reviewView } from '../domain/exchange/reviews.js';
import { HttpError } from '../http/http-error.js';
import { v3Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { filterPredicate, listRecords } from '../store/list-records.js';
import { clientOf } from './v3-request.js';
import { v3ListRequestOf } from './v3-list-request.js';

/** The order status a review needs: the order machine's state of a finished exchange. */
const reviewableStatus = 'completed';

export function reviewHandlers(sandbox: Sandbox): Pick<ExchangeV3Handlers, 'listReviews' | 'createReview'> {
  const { clock } = sandbox;
  return {
    listReviews: (request, context) => {
      const clientId = clientOf(context);
      const { collection } = sandbox.services.reviews;
      const listRequest = v3ListRequestOf(request.query, 'listReviews', collection.keys);
      const filters = filterPredicate(listRequest.filters, reviewMatchers);
      const page = listRecords(collection, listRequest, (r) => r.clientId === clientId && (filters?.(r) ?? true));
      return v3Success('listReviews', context, clock, 200, { reviews: page.items.map(reviewView) }, { pagination: page.meta });
    },

    createReview: (request, context) => {
      const clientId = clientOf(context);
      const { body } = request;
      const details: Record<string, string[]> = {};
      const order = sandbox.services.orders.find(clientId, body.order);
      if (order === undefined) details['body.order'] = ['is not an order of this client'];
      else if (order.status !== reviewableStatus) details['body.order'] = [`is ${order.status}; only a ${reviewableStatus} order can be reviewed`];
      if (body.text.trim().length < 10) details['body.text'] = ['must hold at least 10 characters besides spaces'];
      if (body.author_name.trim() === '') details['body.author_name'] = ['must not be blank'];
      if (order === undefined || Object.keys(details).length > 0) throw new HttpError('validation_error', 'The given data was invalid.', details);
      const book = sandbox.services.reviews;
      if (book.hasReview(order.publicId)) throw new HttpError('invalid_state_transition', `Order ${order.publicId} already has a review.`);
      const review = book.create({ clientId, orderPublicId: order.publicId, rating: body.rating, text: body.text.trim(), authorName: body.author_name.trim() });
      return v3Success('createReview', context, clock, 201, { review: reviewView(review) });
    },
  };
}
