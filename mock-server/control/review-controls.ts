// moderateReview: the control API stands in for the exchanger's staff and publishes or rejects a
// review of any client by the review machine; a decided review is refused with the machine's
// reason (409).
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import { reviewView } from '../domain/exchange/reviews.js';
import { HttpError } from '../http/http-error.js';
import { controlSuccess } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

export function reviewControlHandlers(sandbox: Sandbox): Pick<SandboxControlHandlers, 'moderateReview'> {
  return {
    moderateReview: (request, context) => {
      const book = sandbox.services.reviews;
      const review = book.find(request.path.review);
      if (review === undefined) throw new HttpError('not_found', 'No review has this id.');
      const decided = book.moderate(review, request.body.decision);
      if (!decided.ok) throw new HttpError('invalid_state_transition', decided.reason, { decision: [decided.reason] });
      return controlSuccess('moderateReview', context, sandbox.clock, 200, { review: reviewView(review) });
    },
  };
}
