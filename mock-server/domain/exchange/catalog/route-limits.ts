// The limits a route publishes at a course and reserve, derived with the quote's own roundings so
// that every amount within one side's limits is quotable on that side, the limits themselves
// included, and nothing outside them is: a quote checks the side it names against that side's
// limits only (amount-check.ts), and the derivation makes that check the whole rule: amount_in
// within the give side's range, the payout within the reserve.
//
// The give side is the route's range, its top lowered to what the reserve can pay out. The
// receive side is the range of payouts whose receive-side price (amount_in, rounded up) lies within
// the give side's. Its ends are not the payouts of min_give and max_give: those are priced the
// other way (the fee rounded half-up rather than up) and may lie one unit of the last decimal
// outside it.
import { add, compare, formatDecimal, parseDecimal, subtract, type Decimal } from '../../../decimal.js';
import type { RouteRecord } from './catalog-records.js';
import { maxReceiveFor, priceGive, priceReceive } from './pricing.js';

export interface RouteLimits {
  min_give: string;
  max_give: string;
  min_receive: string;
  max_receive: string;
  reserve: string;
}

export function routeLimits(route: RouteRecord, course: string, reserve: string): RouteLimits {
  const giveUnit = unitAt(route.from.spec.decimals);
  const maxGive = smaller(route.maxGive, reserveCap(route, course, reserve, giveUnit));
  // One receive unit past the largest payout that costs less than min_give.
  const belowMinGive = formatDecimal(subtract(parseDecimal(route.minGive), giveUnit));
  const minReceive = formatDecimal(add(parseDecimal(maxReceiveFor(route, course, belowMinGive)), unitAt(route.to.spec.decimals)));
  // The reserve caps max_receive (the route schema's `limits.reserve`).
  const maxReceive = smaller(maxReceiveFor(route, course, maxGive), reserve);
  return { min_give: route.minGive, max_give: maxGive, min_receive: minReceive, max_receive: maxReceive, reserve };
}

/**
 * The most a client may give before its payout could pass the reserve: what a receive-side quote
 * of the whole reserve costs, or one give unit less when that amount, given, pays out more than
 * the reserve (the fee rounds half-up on the give side). Every smaller amount given pays out at
 * most the reserve: below that cost the gross stays under what the reserve needs with the fee.
 */
function reserveCap(route: RouteRecord, course: string, reserve: string, giveUnit: Decimal): string {
  const cost = priceReceive(route, course, reserve).amountIn;
  if (compare(parseDecimal(priceGive(route, course, cost).amountOut), parseDecimal(reserve)) <= 0) return cost;
  return formatDecimal(subtract(parseDecimal(cost), giveUnit));
}

function unitAt(decimals: number): Decimal {
  return { units: 1n, scale: decimals };
}

function smaller(a: string, b: string): string {
  return compare(parseDecimal(a), parseDecimal(b)) <= 0 ? a : b;
}
