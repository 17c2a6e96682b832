// The card a card verification may name an order for (CreateCardVerificationRequest.order, "the
// order the card pays for"): on an order paid by card, the card it was created with. Staff
// approving a verification of another card must not release that order, so such a verification
// is refused when it is created. An order paid otherwise needs no card verification (the rule in
// verification-needs.ts), and its verification status does not hold it: any card is taken there.
import type { OrderRecord } from '../exchange/order-records.js';
import { sideRequisite } from '../exchange/order-request.js';
import { askedRequisite, requisiteIs } from '../exchange/requisite-digests.js';

/** Why `cardNumber` cannot be verified for the order; null when it may. */
export function otherCardProblem(order: Pick<OrderRecord, 'publicId' | 'draft' | 'requisiteDigests'>, cardNumber: string): string | null {
  const paying = sideRequisite(order.draft.requisites, 'from');
  if (paying?.field !== 'from_card_number') return null;
  // The order keeps its card masked; the digest of the full number tells whether it is this one.
  if (requisiteIs(order.draft.requisites, order.requisiteDigests, 'from', askedRequisite(cardNumber))) return null;
  return `order ${order.publicId} is paid with the card ${paying.value}: a card verification for it is of that card`;
}
