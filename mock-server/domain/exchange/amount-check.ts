// An amount asked on a route, priced at the route's current state and checked against the limits
// of the side it names (the give side's min/max, or the receive side's). The route's limits are
// derived so that this one check is the whole rule (catalog/route-limits.ts): an amount within its
// side's limits has an amount_in within the give side's and a payout the reserve covers. A give
// amount is first rounded down to its side's precision; a receive amount is paid out exactly as
// asked, so one with more decimals than its side has is refused rather than cut. Failures name
// `body.amount`.
import type { AmountSide } from '../../../generated/exchange-v3/types.js';
import type { RouteState } from './catalog/route-state.js';
import { compare, fractionDigits, isZero, parseDecimal } from '../../decimal.js';
import { priceGive, priceReceive, type Priced } from './catalog/pricing.js';

export type AmountOutcome =
  | { ok: true; priced: Priced }
  | { ok: false; check: 'amount' | 'limits'; message: string };

export function priceAmount(state: RouteState, amount: string, side: AmountSide): AmountOutcome {
  const { route, limits, course } = state;
  const paid = route.to.spec;
  if (side === 'receive' && fractionDigits(amount) > paid.decimals) {
    return { ok: false, check: 'amount', message: `has more than ${paid.decimals} decimals, the precision of ${paid.letter}` };
  }
  const priced = side === 'give' ? priceGive(route, course, amount) : priceReceive(route, course, amount);
  const [asked, min, max, spec] =
    side === 'give' ? [priced.amountIn, limits.min_give, limits.max_give, route.from.spec] : [priced.amountOut, limits.min_receive, limits.max_receive, route.to.spec];
  if (isZero(parseDecimal(asked))) {
    return { ok: false, check: 'amount', message: `must be greater than 0 at ${spec.decimals} decimals of ${spec.letter}` };
  }
  const code = spec.letter;
  if (compare(parseDecimal(asked), parseDecimal(min)) < 0) return { ok: false, check: 'limits', message: `${asked} ${code} is below the minimum of ${min} ${code}` };
  if (compare(parseDecimal(asked), parseDecimal(max)) > 0) return { ok: false, check: 'limits', message: `${asked} ${code} is above the maximum of ${max} ${code}` };
  return { ok: true, priced };
}
