// The upload-intent machine through the exchange API: a file committed to the intent, the intent
// used by an identity verification (which consumes it), and its ttl running out on the clock.
import type { UploadIntent } from '../../../generated/exchange-v3/types.js';
import { uploadIntentMachine } from '../../../generated/machines.js';
import { createIntent, fileBytes, filePart } from '../uploads-helpers.js';
import type { AnyTransition, MachineDriver } from './driver.js';

export const uploadIntentDriver: MachineDriver<UploadIntent> = {
  async create({ server }) {
    return createIntent(server.v3, { purpose: 'identity_verification' });
  },

  async fire({ server }, intent, step: AnyTransition) {
    switch (step.event) {
      case 'commit':
        await server.v3.commitUploadIntent({ path: { intent: intent.uuid }, body: filePart('passport.jpg', fileBytes('jpeg')) });
        return;
      case 'consume':
        await server.v3.createIdentityVerification({ body: { documents: [{ upload_intent: intent.uuid, kind: 'passport' }] } });
        return;
      case 'expire':
        await server.control.advanceClock({ body: { seconds: uploadIntentMachine.timers.ttl!.seconds! } });
        return;
      default:
        throw new Error(`the upload-intent walk cannot fire ${step.event}`);
    }
  },

  async status({ server }, intent) {
    return (await server.v3.getUploadIntent({ path: { intent: intent.uuid } })).body.result.upload_intent.status;
  },
};
