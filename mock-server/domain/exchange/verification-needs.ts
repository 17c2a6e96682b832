// The one rule for which verifications an exchange needs: a card verification when the client
// pays by bank card (exchangers verify each card once), an identity verification when the route
// always asks for one (bank transfers) or the give amount is above the route's threshold.
// Preflight, orders (order-request.ts) and the verification requirements all read it.
import type { RouteRecord } from './catalog/catalog-records.js';
import { routeVerifications } from './catalog/route-capabilities.js';
import { compare, isAmount, parseDecimal } from '../../decimal.js';

export function verificationNeeds(route: RouteRecord, giveAmount: string | null): { identity: boolean; card: boolean } {
  const always = routeVerifications(route);
  const aboveThreshold =
    giveAmount !== null && isAmount(giveAmount) && route.identityAboveGive !== null && compare(parseDecimal(giveAmount), parseDecimal(route.identityAboveGive)) > 0;
  return { identity: always.identity || aboveThreshold, card: always.card };
}
