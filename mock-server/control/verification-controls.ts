// reviewVerification: the control API stands in for compliance staff and decides any client's
// verification by the verification machine; an order held for it moves on (order-link.ts), and
// its order.status_changed event is stored before the answer.
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import type { ReviewVerificationRequest } from '../../generated/sandbox-control/types.js';
import type { VerificationEvent } from '../../generated/machines.js';
import { presentVerification } from '../domain/verifications/verification-records.js';
import { ordersChanged } from '../handlers/v3-orders.js';
import { HttpError } from '../http/http-error.js';
import { respond } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

/** Each decision of the request is the machine event of the same name. */
const decisionEvents: Readonly<Record<ReviewVerificationRequest['decision'], VerificationEvent>> = { approve: 'approve', reject: 'reject' };

export function verificationControlHandlers(sandbox: Sandbox): Pick<SandboxControlHandlers, 'reviewVerification'> {
  return {
    reviewVerification: async (request, context) => {
      const { decision, reason } = request.body;
      const service = sandbox.services.verifications;
      const verification = service.find(request.path.verification);
      if (verification === undefined) throw new HttpError('not_found', 'No verification has this id.');
      const event = decisionEvents[decision];
      if (event === 'reject' && reason === undefined) throw new HttpError('validation_error', 'A rejection needs a reason.', { 'body.reason': ['is required with decision reject'] });
      const reviewed = service.review(verification, event, event === 'reject' ? (reason ?? null) : null);
      await ordersChanged(sandbox);
      if (!reviewed.ok) throw new HttpError('invalid_state_transition', reviewed.details.decision?.[0] ?? 'The decision is not allowed now.', reviewed.details);
      return respond(context, sandbox.clock, 200, { verification: presentVerification(reviewed.value) });
    },
  };
}
