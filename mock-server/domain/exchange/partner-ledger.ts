// What a partner earns, computed from its orders (EX-ORD's order service): each order valued in
// the partner currency at the catalog's reference prices; a completed order earns the partner
// its commission percent of the exchanger's profit on it (what the client gave less what it
// received, at reference prices: the rate's spread and the fee). Statistics, referrals (the distinct e-mails of
// the orders) and the balance all read this one ledger.
import type { PartnerExchange, PartnerReferral, PartnerStatistics } from '../../../generated/exchange-v3/types.js';
import type { ExchangeCatalog } from './catalog/catalog-service.js';
import { add, compare, divide, formatDecimal, multiply, parseDecimal, roundDecimal, subtract, type Decimal } from '../../decimal.js';
import type { OrderRecord } from './order-records.js';
import { partnerCurrency, type PartnerAccount, type PayoutRecord } from './partner.js';

/** The order status that earns a commission: the order machine's finished exchange. */
const earningStatus = 'completed';

export interface LedgerEntry {
  order: OrderRecord;
  /** amount_in in the partner currency. */
  turnover: Decimal;
  /** The partner's commission; zero unless the order completed. */
  commission: Decimal;
}

const zero = parseDecimal('0');
const hundred = parseDecimal('100');

function money(value: Decimal): { currency: string; amount: string } {
  return { currency: partnerCurrency.code, amount: formatDecimal(roundDecimal(value, partnerCurrency.decimals, 'down')) };
}

/** An amount of a payment system (by rates-file code) in USD at its reference price. */
function usdValue(catalog: ExchangeCatalog, letter: string, amount: string): Decimal {
  const system = catalog.systemByLetter(letter);
  return system === undefined ? zero : multiply(parseDecimal(amount), parseDecimal(system.spec.usdPrice));
}

/** What the ledger is computed from: the orders and the reference prices of the catalog. */
export interface LedgerSources {
  catalog: ExchangeCatalog;
  orders: { ordersOf(clientId: string): Iterable<OrderRecord> };
}

/** The client's orders, oldest first, with their value and commission. */
export function ledgerOf({ catalog, orders }: LedgerSources, account: PartnerAccount): LedgerEntry[] {
  const entries = [...orders.ordersOf(account.clientId)].map((order) => {
    const given = usdValue(catalog, order.draft.currencyIn, order.draft.amountIn);
    const profit = subtract(given, usdValue(catalog, order.draft.currencyOut, order.draft.amountOut));
    const earns = order.status === earningStatus && compare(profit, zero) > 0;
    return {
      order,
      turnover: given,
      commission: earns ? divide(multiply(profit, parseDecimal(account.commissionPercent)), hundred, partnerCurrency.decimals, 'down') : zero,
    };
  });
  return entries.sort((a, b) => a.order.id - b.order.id);
}

export function exchangeView(entry: LedgerEntry): PartnerExchange {
  const { order } = entry;
  return {
    order_id: order.id,
    public_id: order.publicId,
    status: order.status,
    amount_in: order.draft.amountIn,
    currency_in: order.draft.currencyIn,
    amount_out: order.draft.amountOut,
    currency_out: order.draft.currencyOut,
    commission: money(entry.commission).amount,
    created_at: order.createdAt.toISOString(),
  };
}

const sum = (values: Decimal[]) => values.reduce(add, zero);
const completedTurnover = (entries: readonly LedgerEntry[]) => sum(entries.filter((e) => e.order.status === earningStatus).map((e) => e.turnover));

export interface ReferralRecord {
  id: number;
  registeredAt: Date;
  entries: LedgerEntry[];
}

/** The partner's referred customers: one per distinct order e-mail, registered at its first order. */
export function referralsOf(entries: readonly LedgerEntry[]): ReferralRecord[] {
  const byEmail = new Map<string, ReferralRecord>();
  for (const entry of entries) {
    const email = entry.order.draft.email.toLowerCase();
    const referral = byEmail.get(email);
    if (referral === undefined) byEmail.set(email, { id: entry.order.id, registeredAt: entry.order.createdAt, entries: [entry] });
    else referral.entries.push(entry);
  }
  return [...byEmail.values()];
}

export function referralView(referral: ReferralRecord): PartnerReferral {
  return {
    id: referral.id,
    registered_at: referral.registeredAt.toISOString(),
    exchanges_count: referral.entries.length,
    turnover: money(completedTurnover(referral.entries)),
  };
}

export interface Period {
  from: Date | null;
  to: Date | null;
}

/** In [from, to): from inclusive, to exclusive (the contract's PartnerCreatedFrom/To). */
function within(period: Period, at: Date): boolean {
  return (period.from === null || at >= period.from) && (period.to === null || at < period.to);
}

export function statistics(account: PartnerAccount, entries: readonly LedgerEntry[], payouts: readonly PayoutRecord[], period: Period): PartnerStatistics {
  const inPeriod = entries.filter((e) => within(period, e.order.createdAt));
  const opening = within(period, account.createdAt) ? parseDecimal(account.openingEarned) : zero;
  return {
    period: { from: period.from?.toISOString() ?? null, to: period.to?.toISOString() ?? null },
    referrals_count: referralsOf(entries).filter((r) => within(period, r.registeredAt)).length,
    exchanges_count: inPeriod.length,
    completed_exchanges_count: inPeriod.filter((e) => e.order.status === earningStatus).length,
    turnover: money(completedTurnover(inPeriod)),
    earned: money(add(opening, sum(inPeriod.map((e) => e.commission)))),
    paid_out: money(sum(payouts.filter((p) => p.status === 'paid' && within(period, p.createdAt)).map((p) => parseDecimal(p.amount)))),
  };
}

/** Everything earned, less what is paid out or on its way (rejected payouts return to the balance). */
export function balance(account: PartnerAccount, entries: readonly LedgerEntry[], payouts: readonly PayoutRecord[]): { currency: string; amount: string } {
  const earned = add(parseDecimal(account.openingEarned), sum(entries.map((e) => e.commission)));
  const out = sum(payouts.filter((p) => p.status !== 'rejected').map((p) => parseDecimal(p.amount)));
  return money(compare(earned, out) > 0 ? subtract(earned, out) : zero);
}
