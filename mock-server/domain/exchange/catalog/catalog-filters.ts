// The list filters of payment systems and routes (the contract's filter[...] parameters), as
// matchers for filterPredicate. Codes compare case-insensitively.
import { match, type FilterMatcher } from '../../../store/list-records.js';
import { sameCode, type ExchangeCatalog } from './catalog-service.js';
import type { PaymentSystemRecord, RouteRecord } from './catalog-records.js';

const code = <R>(value: (record: R) => string): FilterMatcher<R> => (record, wanted) => typeof wanted === 'string' && sameCode(value(record), wanted);
const anyOf = (ids: number[], wanted: unknown): boolean => Array.isArray(wanted) && ids.some((id) => wanted.includes(id));

export function paymentSystemMatchers(catalog: ExchangeCatalog): Record<string, FilterMatcher<PaymentSystemRecord>> {
  return {
    id: match.oneOf((s) => s.id),
    payment_id: match.oneOf((s) => s.paymentId),
    code_currency_id: match.oneOf((s) => s.currencyId),
    side: (s, side) => {
      const { canGive, canReceive } = catalog.sidesOf(s);
      return side === 'give' ? canGive : canReceive;
    },
    // Systems a route leads to from the given give-side ids.
    from_currency_id: (s, wanted) => anyOf(catalog.routesOf(s).receiveFrom.map((r) => r.from.id), wanted),
    // Systems with a route to the given receive-side ids.
    to_currency_id: (s, wanted) => anyOf(catalog.routesOf(s).giveTo.map((r) => r.to.id), wanted),
    currency_code: code((s) => s.spec.currency.code),
    letter_code: code((s) => s.spec.letter),
    short_code: code((s) => s.spec.short),
    network: (s, wanted) => typeof wanted === 'string' && s.spec.network !== null && sameCode(s.spec.network, wanted),
  };
}

export const routeMatchers: Record<string, FilterMatcher<RouteRecord>> = {
  id: match.oneOf((r) => r.id),
  from_currency_id: match.oneOf((r) => r.from.id),
  to_currency_id: match.oneOf((r) => r.to.id),
  from: code((r) => r.from.spec.letter),
  to: code((r) => r.to.spec.letter),
};
