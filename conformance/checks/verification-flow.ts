// Verifications of an order (part of the exchange flow, --allow-writes): the documents the
// requirements name are uploaded (upload intent, then its multipart commit), an identity and a
// card verification are started with them, the identity one is submitted and, under --sandbox, approved by staff
// (reviewVerification); the observed statuses must be legal for the verification machine.
import type { CreateIdentityVerificationRequest, CreateUploadIntentRequest, Order, UploadPurpose, Verification } from '../../generated/exchange-v3/types.js';
import { verificationMachine } from '../../generated/machines.js';
import { requestExample } from '../contract/document.js';
import { families, routeOf } from '../contract/families.js';
import type { RunContext } from '../context.js';
import { sequenceProblems, withoutRepeats } from '../judge/machine.js';
import { describeError } from './judge-call.js';
import { flowStep } from './flow-step.js';

const flow = 'flow:verification';
const family = families.v3;
// The smallest file every upload purpose accepts: a PDF header and end marker.
const documentBytes = '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n';

export async function checkVerificationFlow(context: RunContext, order: Order): Promise<void> {
  if (!context.selected(family, routeOf(family, 'createIdentityVerification'))) return;
  const v3 = context.v3!;
  const requirements = await flowStep(context, flow, family, 'getVerificationRequirements', () => v3.getVerificationRequirements());
  if (requirements === undefined) return;
  const documents: CreateIdentityVerificationRequest['documents'] = [];
  for (const kind of requirements.body.result.requirements.identity.documents) {
    const upload = await committedUpload(context, 'identity_verification', order, kind);
    if (upload === undefined) return;
    documents.push({ upload_intent: upload, kind });
  }
  const identity = (
    await flowStep(context, flow, family, 'createIdentityVerification', () => v3.createIdentityVerification({ body: { documents, order: order.public_id } }))
  )?.body.result.verification;
  if (identity === undefined) return;
  context.paths.remember(family, routeOf(family, 'getIdentityVerification'), { verification: identity.id });

  const cardUpload = await committedUpload(context, 'card_verification', order, null);
  if (cardUpload !== undefined) {
    const cardExample = requestExample(family.contract, 'createCardVerification') as { card_number: string; holder_name: string };
    const card = await flowStep(context, flow, family, 'createCardVerification', () =>
      v3.createCardVerification({ body: { card_number: cardExample.card_number, holder_name: cardExample.holder_name, upload_intent: cardUpload, order: order.public_id } }),
    );
    if (card !== undefined) context.paths.remember(family, routeOf(family, 'getCardVerification'), { verification: card.body.result.verification.id });
  }
  await reviewIdentity(context, order, identity);
}

/** Submits the identity verification and (under --sandbox) approves it, judging the statuses seen. */
async function reviewIdentity(context: RunContext, order: Order, identity: Verification): Promise<void> {
  const v3 = context.v3!;
  const observed: (string | undefined)[] = [identity.status];
  const read = async (): Promise<string | undefined> =>
    (await flowStep(context, flow, family, 'getIdentityVerification', () => v3.getIdentityVerification({ path: { verification: identity.id } })))?.body.result.verification.status;
  // A verification created with every document is already in review; a pending one is submitted.
  const submitted =
    identity.status !== verificationMachine.initial ||
    (await flowStep(context, flow, family, 'submitOrderVerifications', () =>
      v3.submitOrderVerifications({ path: { order: String(order.id) }, body: { verifications: [identity.id] } }),
    )) !== undefined;
  if (submitted) observed.push(await read());
  if (context.control === undefined) {
    context.log.skip(flow, 'review', 'approving a verification needs reviewVerification (--sandbox)');
  } else if (submitted) {
    try {
      await context.control.reviewVerification({ path: { verification: identity.id }, body: { decision: 'approve' } });
      observed.push(await read());
    } catch (error) {
      context.log.add(flow, 'review', 'fail', `the sandbox refused to approve: ${describeError(error)}`);
    }
  }
  const statuses = withoutRepeats(observed);
  context.log.judge(flow, 'machine', sequenceProblems(verificationMachine, statuses, true), `observed ${statuses.join(' → ')}`);
}

/** An upload intent for the order with a committed document; its uuid, or undefined when a step failed. */
async function committedUpload(context: RunContext, purpose: UploadPurpose, order: Order, fieldKey: string | null): Promise<string | undefined> {
  const v3 = context.v3!;
  const example = requestExample(family.contract, 'createUploadIntent') as CreateUploadIntentRequest;
  const created = await flowStep(context, flow, family, 'createUploadIntent', () =>
    v3.createUploadIntent({ body: { ...example, purpose, resource_id: String(order.id), field_key: fieldKey } }),
  );
  const intent = created?.body.result.upload_intent;
  if (intent === undefined) return undefined;
  context.paths.remember(family, routeOf(family, 'getUploadIntent'), { intent: intent.uuid });
  const file = new File([documentBytes], 'document.pdf', { type: 'application/pdf' });
  const committed = await flowStep(context, flow, family, 'commitUploadIntent', () => v3.commitUploadIntent({ path: { intent: intent.uuid }, body: { file } }));
  return committed === undefined ? undefined : intent.uuid;
}
