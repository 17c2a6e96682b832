// The records of the exchange catalog and how a seed builds them from the payment-system data:
// ids in data order, and per seed the reserves, display positions, spreads, fees, limits and
// which crypto routes float. Same seed → same records (the Random is the only source).
import type { Random } from '../../../random.js';
import { divide, formatDecimal, multiply, parseDecimal, roundDecimal, roundSignificant, type Decimal } from '../../../decimal.js';
import { isRoutePair, paymentSystemSpecs, type PaymentSystemSpec } from './payment-system-data.js';

export interface PaymentSystemRecord {
  id: number;
  spec: PaymentSystemSpec;
  paymentId: number;
  currencyId: number;
  /** Display position (`sorting.position`). */
  position: number;
  /** Reserve available for payouts, in this system's units. */
  reserve: string;
}

export type RateType = 'fixed' | 'floating';

export interface RouteRecord {
  id: number;
  from: PaymentSystemRecord;
  to: PaymentSystemRecord;
  name: string;
  position: number;
  rateType: RateType;
  /** Units of `to` per unit of `from` at the start (a floating rate drifts around it). */
  baseCourse: string;
  /** The exchanger's fee, percent of the gross payout, deducted from it. */
  feePercent: string;
  minGive: string;
  maxGive: string;
  /** Identity verification is needed for give amounts above this (always, when null). */
  identityAboveGive: string | null;
  /** Why the route is suspended; null when it is enabled. */
  suspended: string | null;
}

/** Give amounts above this USD value need an identity verification (a usual exchanger AML rule). */
const identityThresholdUsd = '3000';
/** Significant digits a course is shown with. */
export const courseDigits = 8;

export function buildPaymentSystems(random: Random): PaymentSystemRecord[] {
  const paymentIds = new Map<string, number>();
  const currencyIds = new Map<string, number>();
  return paymentSystemSpecs.map((spec, index) => {
    if (!paymentIds.has(spec.payment.name)) paymentIds.set(spec.payment.name, paymentIds.size + 1);
    if (!currencyIds.has(spec.currency.code)) currencyIds.set(spec.currency.code, currencyIds.size + 1);
    const [low, high] = spec.reserve;
    return {
      id: index + 1,
      spec,
      paymentId: paymentIds.get(spec.payment.name)!,
      currencyId: currencyIds.get(spec.currency.code)!,
      position: random.int(1, 99) * 10,
      reserve: formatDecimal(roundDecimal(parseDecimal(String(random.int(low, high))), spec.decimals, 'down')),
    };
  });
}

export function buildRoutes(systems: readonly PaymentSystemRecord[], random: Random): RouteRecord[] {
  const routes: RouteRecord[] = [];
  for (const from of systems) {
    for (const to of systems) {
      if (!isRoutePair(from.spec, to.spec)) continue;
      routes.push(buildRoute(routes.length + 1, from, to, random));
    }
  }
  return routes;
}

function buildRoute(id: number, from: PaymentSystemRecord, to: PaymentSystemRecord, random: Random): RouteRecord {
  const fiat = from.spec.kind !== 'crypto' || to.spec.kind !== 'crypto';
  // Spread in tenths of a percent: fiat routes carry more (chargebacks, bank costs).
  const spreadPermille = fiat ? random.int(15, 40) : random.int(3, 15);
  const fair = divide(parseDecimal(from.spec.usdPrice), parseDecimal(to.spec.usdPrice), 18, 'half-up');
  const course = multiply(fair, parseDecimal(`0.${String(1000 - spreadPermille).padStart(3, '0')}`));
  const minUsd = fiat ? random.int(20, 60) : random.int(10, 40);
  const maxUsd = random.int(5, 50) * 1000;
  return {
    id,
    from,
    to,
    name: `${from.spec.name} → ${to.spec.name}`,
    position: random.int(1, 999),
    rateType: !fiat && random.next() < 0.4 ? 'floating' : 'fixed',
    baseCourse: formatDecimal(roundSignificant(course, courseDigits, 0, 'down')),
    feePercent: formatDecimal(parseDecimal(`0.${random.int(0, 10)}`)),
    minGive: usdIn(String(minUsd), from, 'up'),
    maxGive: usdIn(String(maxUsd), from, 'down'),
    identityAboveGive: from.spec.kind === 'bank' || to.spec.kind === 'bank' ? null : usdIn(identityThresholdUsd, from, 'down'),
    suspended: to.spec.payoutsSuspended ?? null,
  };
}

/** A USD value in a system's units at its reference price, rounded to its precision. */
function usdIn(usd: string, system: PaymentSystemRecord, rounding: 'up' | 'down'): string {
  return formatDecimal(divide(parseDecimal(usd), parseDecimal(system.spec.usdPrice), system.spec.decimals, rounding));
}

/** The course moved by `ppm` parts per million (negative: down), shown like the base. */
export function driftedCourse(baseCourse: string, ppm: number): string {
  const factor: Decimal = { units: BigInt(1_000_000 + ppm), scale: 6 };
  return formatDecimal(roundSignificant(multiply(parseDecimal(baseCourse), factor), courseDigits, 0, 'down'));
}

/** A route with a fiat leg is checked by staff (BestChange's `manual` flag). */
export function isManual(route: RouteRecord): boolean {
  return route.from.spec.kind !== 'crypto' || route.to.spec.kind !== 'crypto';
}
