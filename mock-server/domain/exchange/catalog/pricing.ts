// Pricing one amount on a route at a course: the exchanger's fee is a percent of the gross
// payout and is deducted from it (the contract's Order.fee). Amounts are rounded to each side's
// precision in the exchanger's favour where rounding is needed: the payout down, what the
// client must pay up, the fee half-up (the contract's quote example: 0.015 BTC at 64000.5 with
// 0.5% gives 955.207462 and a fee of 4.800038).
import { compare, divide, formatDecimal, multiply, parseDecimal, roundDecimal, subtract } from '../../../decimal.js';
import type { RouteRecord } from './catalog-records.js';

export interface Priced {
  amountIn: string;
  amountOut: string;
  fee: string;
}

const hundred = parseDecimal('100');

/** What `amountIn` of the give side buys: the payout after the fee. */
export function priceGive(route: RouteRecord, course: string, amountIn: string): Priced {
  const outScale = route.to.spec.decimals;
  const input = roundDecimal(parseDecimal(amountIn), route.from.spec.decimals, 'down');
  const gross = multiply(input, parseDecimal(course));
  const fee = divide(multiply(gross, parseDecimal(route.feePercent)), hundred, outScale, 'half-up');
  const grossOut = roundDecimal(gross, outScale, 'down');
  const out = compare(grossOut, fee) > 0 ? subtract(grossOut, fee) : roundDecimal(parseDecimal('0'), outScale, 'down');
  return { amountIn: formatDecimal(input), amountOut: formatDecimal(out), fee: formatDecimal(fee) };
}

/**
 * What the client must give so that `amountOut` is paid out after the fee; `amountOut` has at most
 * the receive side's decimals (amount-check.ts refuses more: a payout is never cut).
 */
export function priceReceive(route: RouteRecord, course: string, amountOut: string): Priced {
  const outScale = route.to.spec.decimals;
  const out = parseDecimal(amountOut);
  // gross × (1 − fee%) = out
  const keptPercent = subtract(hundred, parseDecimal(route.feePercent));
  const gross = divide(multiply(out, hundred), keptPercent, outScale, 'up');
  const fee = subtract(gross, out);
  const input = divide(gross, parseDecimal(course), route.from.spec.decimals, 'up');
  return { amountIn: formatDecimal(input), amountOut: formatDecimal(out), fee: formatDecimal(fee) };
}

/**
 * The largest payout whose price on the receive side (priceReceive) is at most `amountIn`: its two
 * roundings up undone, each rounded down (gross ≤ amountIn × course, payout ≤ gross × (100 − fee) / 100).
 * priceReceive never falls as the payout grows, so every payout up to this one costs at most `amountIn`.
 */
export function maxReceiveFor(route: RouteRecord, course: string, amountIn: string): string {
  const outScale = route.to.spec.decimals;
  const gross = roundDecimal(multiply(parseDecimal(amountIn), parseDecimal(course)), outScale, 'down');
  const keptPercent = subtract(hundred, parseDecimal(route.feePercent));
  return formatDecimal(divide(multiply(gross, keptPercent), hundred, outScale, 'down'));
}
