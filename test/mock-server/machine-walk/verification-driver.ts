// The verification machine through the exchange API and the control API's review: an identity
// verification of no order, created with its passport only (pending), submitted by the upload of
// its selfie, decided by staff (approved, rejected, or sent back for a new selfie), or left to
// expire on the clock.
import type { Verification } from '../../../generated/exchange-v3/types.js';
import { verificationMachine } from '../../../generated/machines.js';
import { uploaded } from '../uploads-helpers.js';
import type { AnyTransition, MachineDriver } from './driver.js';

type Decision = 'approve' | 'reject' | 'request_more_info';
const reasons: Partial<Record<Decision, { reason: string; documents?: ['selfie'] }>> = {
  reject: { reason: 'The passport has expired.' },
  request_more_info: { reason: 'The selfie is too dark.', documents: ['selfie'] },
};

export const verificationDriver: MachineDriver<Verification> = {
  async create({ server }) {
    const passport = await uploaded(server.v3, { purpose: 'identity_verification', field_key: 'passport' });
    const created = await server.v3.createIdentityVerification({ body: { documents: [{ upload_intent: passport.uuid, kind: 'passport' }] } });
    return created.body.result.verification;
  },

  async fire({ server }, verification, step: AnyTransition) {
    switch (step.event) {
      case 'submit':
        // The client's upload of the missing selfie submits a verification of no order.
        await uploaded(server.v3, { purpose: 'identity_verification', resource_type: 'verification', resource_id: verification.id, field_key: 'selfie' });
        return;
      case 'expire':
        await server.control.advanceClock({ body: { seconds: verificationMachine.timers.ttl!.seconds! } });
        return;
      case 'approve':
      case 'reject':
      case 'request_more_info':
        await server.control.reviewVerification({ path: { verification: verification.id }, body: { decision: step.event, ...reasons[step.event] } });
        return;
      default:
        throw new Error(`the verification walk cannot fire ${step.event}`);
    }
  },

  async status({ server }, verification) {
    return (await server.v3.getIdentityVerification({ path: { verification: verification.id } })).body.result.verification.status;
  },
};
