// The one rule for which verifications an exchange needs: a card verification when the client
// pays by bank card (exchangers verify each card once), an identity verification when the route
// always asks for one (bank transfers) or the give amount is above the route's threshold.
// Preflight, orders (order-request.ts) and the verification requirements all read it, less
// what the client has passed already (PassedVerifications).
import type { RouteRecord } from './catalog/catalog-records.js';
import { routeVerifications } from './catalog/route-capabilities.js';
import { compare, isAmount, parseDecimal } from '../../decimal.js';

/** Whether a client has passed a verification (the verification service answers it). */
export interface PassedVerifications {
  /**
   * identity: any approved identity verification of the client; card: an approved card
   * verification of exactly this card number (a card is verified once, whatever the order).
   */
  hasApproved(clientId: string, type: 'identity' | 'card', cardNumber?: string): boolean;
}

export function verificationNeeds(route: RouteRecord, giveAmount: string | null): { identity: boolean; card: boolean } {
  const always = routeVerifications(route);
  const aboveThreshold =
    giveAmount !== null && isAmount(giveAmount) && route.identityAboveGive !== null && compare(parseDecimal(giveAmount), parseDecimal(route.identityAboveGive)) > 0;
  return { identity: always.identity || aboveThreshold, card: always.card };
}
