// A verification as the mock keeps it, and its v3 presentation (Verification) and actions
// (VerificationAction) read off the verification machine. The card number itself is never kept:
// only its masked parts and a digest that recognises the same card again ("a card is verified once").
import { createHash } from 'node:crypto';
import type { DocumentKind, Verification, VerificationAction, VerificationType } from '../../../generated/exchange-v3/types.js';
import { verificationMachine, type VerificationEvent, type VerificationState } from '../../../generated/machines.js';
import { allowedEvents, isTerminal, tryFire } from '../machines/fire.js';
import { missingDocuments } from './document-requirements.js';

export interface VerificationDocumentRecord {
  uploadIntent: string;
  kind: DocumentKind;
}

export interface VerificationRecord {
  id: string;
  clientId: string;
  type: VerificationType;
  status: VerificationState;
  /** Database id of the order it was started for. */
  orderId: number | null;
  documents: VerificationDocumentRecord[];
  card: { first6: string; last4: string; holderName: string; digest: string } | null;
  rejectionReason: string | null;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  reviewedAt: Date | null;
}

/** The machine's success state: where `approve` leads. */
export const approvedState: VerificationState = (() => {
  const to = verificationMachine.transitions.find((t) => t.event === 'approve')?.to;
  if (to === undefined) throw new Error('the verification machine lacks the approve event');
  return to;
})();

export function cardDigest(cardNumber: string): string {
  return createHash('sha256').update(cardNumber).digest('hex');
}

/** The required document slots the verification's documents leave empty. */
export function missingOf(verification: VerificationRecord): string[] {
  return missingDocuments(verification.type, verification.documents.map((d) => d.kind));
}

/** Whether it still waits for documents: its status has a submit transition (whatever the guard says). */
export function waitsForDocuments(verification: VerificationRecord): boolean {
  return waitsForDocumentsIn(verification.status);
}

/** Whether a verification in `status` waits for documents (the status has a submit transition). */
export function waitsForDocumentsIn(status: VerificationState): boolean {
  return allowedEvents(verificationMachine, status, { ignoreGuards: true }).includes('submit');
}

/** The guards of the verification machine as they hold for this record now. */
export function guardsOf(verification: VerificationRecord): Record<string, boolean> {
  return { documents_attached: missingOf(verification).length === 0 };
}

export function presentVerification(verification: VerificationRecord): Verification {
  const card = verification.card;
  return {
    id: verification.id,
    type: verification.type,
    status: verification.status,
    order_id: verification.orderId,
    documents: verification.documents.map((d) => ({ upload_intent: d.uploadIntent, kind: d.kind })),
    card: card === null ? null : { first6: card.first6, last4: card.last4, holder_name: card.holderName },
    rejection_reason: verification.rejectionReason,
    expires_at: verification.expiresAt.toISOString(),
    created_at: verification.createdAt.toISOString(),
    updated_at: verification.updatedAt.toISOString(),
    reviewed_at: verification.reviewedAt?.toISOString() ?? null,
  };
}

/**
 * upload_document while the verification waits for documents (submit is an event of its status),
 * submit when the machine takes it with the guards as they hold, resubmit (a new verification)
 * once it ended other than approved.
 */
export function verificationActions(verification: VerificationRecord): VerificationAction[] {
  const { status } = verification;
  const waiting = waitsForDocuments(verification);
  const submit = tryFire(verificationMachine, status, 'submit', { guards: guardsOf(verification) });
  const missing = missingOf(verification);
  const ended = isTerminal(verificationMachine, status) && status !== approvedState;
  return [
    { action: 'upload_document', allowed: waiting, reason: waiting ? null : refusal(verification, 'submit') },
    {
      action: 'submit',
      allowed: submit.ok,
      reason: submit.ok ? null : waiting ? `A required document is missing: ${missing.join(', ')}.` : refusal(verification, 'submit'),
    },
    { action: 'resubmit', allowed: ended, reason: ended ? null : `The verification is ${status}; only one that ended other than ${approvedState} is started again.` },
  ];
}

/** The machine's reason for refusing `event` in the verification's status. */
export function refusal(verification: VerificationRecord, event: VerificationEvent): string {
  const fired = tryFire(verificationMachine, verification.status, event, { ignoreGuards: true });
  return fired.ok ? `The verification is ${verification.status}.` : `The verification is ${verification.status}: ${fired.reason}.`;
}
