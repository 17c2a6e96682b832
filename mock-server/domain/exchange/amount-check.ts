// An amount asked on a route, priced at the route's current state and checked against its
// limits: the give side's min/max, the receive side's min/max (the reserve caps the max). The
// amount is first rounded down to its side's precision. Failures name `body.amount`.
import type { AmountSide } from '../../../generated/exchange-v3/types.js';
import type { RouteState } from './catalog/route-state.js';
import { compare, isZero, parseDecimal } from '../../decimal.js';
import { priceGive, priceReceive, type Priced } from './catalog/pricing.js';

export type AmountOutcome =
  | { ok: true; priced: Priced }
  | { ok: false; check: 'amount' | 'limits'; message: string };

export function priceAmount(state: RouteState, amount: string, side: AmountSide): AmountOutcome {
  const { route, limits, course } = state;
  const priced = side === 'give' ? priceGive(route, course, amount) : priceReceive(route, course, amount);
  const asked = side === 'give' ? priced.amountIn : priced.amountOut;
  const spec = side === 'give' ? route.from.spec : route.to.spec;
  if (isZero(parseDecimal(asked))) {
    return { ok: false, check: 'amount', message: `must be greater than 0 at ${spec.decimals} decimals of ${spec.letter}` };
  }
  const giveBounds: [string, string, string, string] = [priced.amountIn, limits.min_give, limits.max_give, route.from.spec.letter];
  const receiveBounds: [string, string, string, string] = [priced.amountOut, limits.min_receive, limits.max_receive, route.to.spec.letter];
  // The side the client named is checked first, so the message speaks of its amount.
  const bounds = side === 'give' ? [giveBounds, receiveBounds] : [receiveBounds, giveBounds];
  for (const [value, min, max, code] of bounds) {
    if (compare(parseDecimal(value), parseDecimal(min)) < 0) return { ok: false, check: 'limits', message: `${value} ${code} is below the minimum of ${min} ${code}` };
    if (compare(parseDecimal(value), parseDecimal(max)) > 0) return { ok: false, check: 'limits', message: `${value} ${code} is above the maximum of ${max} ${code}` };
  }
  return { ok: true, priced };
}
