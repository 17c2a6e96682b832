// Which documents each verification type needs, and the upload purpose its files carry. The
// document kinds and purposes are the contract's enums (DocumentKind, UploadPurpose); which kinds
// make a complete set is ours: an identity verification needs an identity document (any of the
// three kinds) and a selfie, a card verification the photo of the card (docs/domain-notes.md).
import type { DocumentKind, UploadPurpose, VerificationType } from '../../../generated/exchange-v3/types.js';

interface TypeRequirements {
  purpose: UploadPurpose;
  /** Each slot is filled by one document of any of its kinds; the first kind names the slot. */
  slots: readonly (readonly DocumentKind[])[];
}

const requirements: Readonly<Record<VerificationType, TypeRequirements>> = {
  identity: { purpose: 'identity_verification', slots: [['passport', 'id_card', 'driver_license'], ['selfie']] },
  card: { purpose: 'card_verification', slots: [['card_photo']] },
};

/** Every verification type (a snapshot's records are checked against them). */
export const verificationTypes = Object.keys(requirements) as VerificationType[];

/** The upload purpose of this type's documents. */
export function purposeOf(type: VerificationType): UploadPurpose {
  return requirements[type].purpose;
}

/** The kinds a verification of this type accepts. */
export function acceptedKinds(type: VerificationType): DocumentKind[] {
  return requirements[type].slots.flat();
}

/** The documents to attach, one kind per slot (VerificationRequirements.identity.documents). */
export function requiredDocuments(type: VerificationType): DocumentKind[] {
  return requirements[type].slots.map((slot) => slot[0]!);
}

/** The slots no attached document fills, each as the kinds that would fill it (`passport or id_card…`). */
export function missingDocuments(type: VerificationType, attached: readonly DocumentKind[]): string[] {
  return requirements[type].slots.filter((slot) => !slot.some((kind) => attached.includes(kind))).map((slot) => slot.join(' or '));
}
