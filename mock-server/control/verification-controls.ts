// reviewVerification: the control API stands in for compliance staff and decides any client's
// verification by the verification machine (approve, reject, or ask for more information); an
// order held for it moves on (order-link.ts), and its order.status_changed event is stored
// before the answer.
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import type { ReviewVerificationRequest } from '../../generated/sandbox-control/types.js';
import type { VerificationEvent } from '../../generated/machines.js';
import type { DocumentKind } from '../../generated/exchange-v3/types.js';
import { acceptedKinds } from '../domain/verifications/document-requirements.js';
import { presentVerification } from '../domain/verifications/verification-records.js';
import { ordersChanged } from '../handlers/v3-orders.js';
import { HttpError } from '../http/http-error.js';
import { controlSuccess } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

/** Each decision of the request is the machine event of the same name. */
const decisionEvents: Readonly<Record<ReviewVerificationRequest['decision'], VerificationEvent>> = {
  approve: 'approve',
  reject: 'reject',
  request_more_info: 'request_more_info',
};
/** The decisions the client is told the reason of (rejection_reason). */
const withReason: readonly VerificationEvent[] = ['reject', 'request_more_info'];

export function verificationControlHandlers(sandbox: Sandbox): Pick<SandboxControlHandlers, 'reviewVerification'> {
  return {
    reviewVerification: async (request, context) => {
      const { decision, reason, documents } = request.body;
      const service = sandbox.services.verifications;
      const verification = service.find(request.path.verification);
      if (verification === undefined) throw new HttpError('not_found', 'No verification has this id.');
      const event = decisionEvents[decision];
      const details: Record<string, string[]> = {};
      if (withReason.includes(event) && reason === undefined) details['body.reason'] = [`is required with decision ${decision}`];
      if (documents !== undefined && event !== 'request_more_info') details['body.documents'] = ['is only taken with decision request_more_info'];
      const kinds: readonly string[] = acceptedKinds(verification.type);
      (documents ?? []).forEach((kind, index) => {
        if (!kinds.includes(kind)) details[`body.documents.${index}`] = [`a ${verification.type} verification takes: ${kinds.join(', ')}`];
      });
      if (Object.keys(details).length > 0) throw new HttpError('validation_error', 'The given data was invalid.', details);
      const reviewed = service.review(verification, event, withReason.includes(event) ? (reason ?? null) : null, (documents ?? []) as DocumentKind[]);
      await ordersChanged(sandbox);
      if (!reviewed.ok && reviewed.refused === 'validation') throw new HttpError('validation_error', 'The given data was invalid.', reviewed.details);
      if (!reviewed.ok) throw new HttpError('invalid_state_transition', reviewed.details.decision?.[0] ?? 'The decision is not allowed now.', reviewed.details);
      return controlSuccess('reviewVerification', context, sandbox.clock, 200, { verification: presentVerification(reviewed.value) });
    },
  };
}
