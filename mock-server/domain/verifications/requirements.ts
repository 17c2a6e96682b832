// getVerificationRequirements: what an exchange on a route (of an amount) needs, from the one rule
// the catalog, quotes and orders share (verificationNeeds), less what the client already passed.
// Without a route nothing is required; the documents still say what each type attaches.
import type { VerificationRequirements } from '../../../generated/exchange-v3/types.js';
import type { RouteRecord } from '../exchange/catalog/catalog-records.js';
import { verificationNeeds, type PassedVerifications } from '../exchange/verification-needs.js';
import { requiredDocuments } from './document-requirements.js';

export function verificationRequirements(passed: PassedVerifications, clientId: string, route: RouteRecord | null, amount: string | null): VerificationRequirements {
  const needs = route === null ? { identity: false, card: false } : verificationNeeds(route, amount);
  // The card is not known before the order names it: a card route always asks for the card paid with.
  return {
    identity: { required: needs.identity && !passed.hasApproved(clientId, 'identity'), documents: requiredDocuments('identity') },
    card: { required: needs.card, reason: needs.card ? 'The route pays in by bank card: each card you pay with is verified once (a photo of the card next to the order number).' : null },
  };
}
