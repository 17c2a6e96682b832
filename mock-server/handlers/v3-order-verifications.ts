// The verifications of one order: the list, and sending pending ones to review. The order is the
// client's, by database id, public_id or tracking_id (another client's is 404).
import type { ExchangeV3Handlers } from '../../generated/exchange-v3/routes.js';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import { presentVerification } from '../domain/verifications/verification-records.js';
import { HttpError } from '../http/http-error.js';
import { v3Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { ordersChanged } from './v3-orders.js';
import { clientOf } from './v3-request.js';

export function orderVerificationHandlers(sandbox: Sandbox): Pick<ExchangeV3Handlers, 'listOrderVerifications' | 'submitOrderVerifications'> {
  const { clock } = sandbox;
  const orderOf = (context: HandlerContext, ref: string) => {
    const order = sandbox.services.orders.find(clientOf(context), ref);
    if (order === undefined) throw new HttpError('not_found', 'No order of this client has this id, public_id or tracking_id.');
    return order;
  };

  return {
    listOrderVerifications: (request, context) => {
      const order = orderOf(context, request.path.order);
      const verifications = sandbox.services.verifications.ofOrder(order.clientId, order.id);
      return v3Success('listOrderVerifications', context, clock, 200, { verifications: verifications.map(presentVerification) });
    },

    submitOrderVerifications: async (request, context) => {
      const order = orderOf(context, request.path.order);
      const submitted = sandbox.services.verifications.submitForOrder(order.clientId, order.id, request.body.verifications);
      await ordersChanged(sandbox);
      if (!submitted.ok && submitted.refused === 'state') throw new HttpError('invalid_state_transition', 'A verification is not pending.', submitted.details);
      if (!submitted.ok) throw new HttpError('validation_error', 'A verification cannot be submitted.', submitted.details);
      return v3Success('submitOrderVerifications', context, clock, 200, { verifications: submitted.value.map(presentVerification) });
    },
  };
}
