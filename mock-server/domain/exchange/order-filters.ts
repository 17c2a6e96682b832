// How each filter of listOrders (the contract's `filter[...]` parameters) matches an order.
// filterPredicate fails loudly for a filter the contract declares and this table lacks.
import { compactUuid } from '../../store/compact-uuid.js';
import { match, type FilterMatcher } from '../../store/list-records.js';
import { sameCode } from './catalog/catalog-service.js';
import type { OrderRecord } from './order-records.js';
import type { RequisiteSide } from './order-request.js';
import { askedRequisite, requisiteIs } from './requisite-digests.js';

/** A matcher on a key made from the value asked: made once per value asked, not once per order. */
function matchesKeyOf<K>(keyOf: (value: string) => K, matches: (order: OrderRecord, key: K) => boolean): FilterMatcher<OrderRecord> {
  let asked: string | undefined;
  let key: K;
  return (order, value) => {
    const text = String(value);
    if (text !== asked) [asked, key] = [text, keyOf(text)];
    return matches(order, key);
  };
}

const requisiteMatches = (side: RequisiteSide): FilterMatcher<OrderRecord> =>
  matchesKeyOf(askedRequisite, (order, asked) => requisiteIs(order.draft.requisites, order.requisiteDigests, side, asked));

export const orderFilterMatchers: Readonly<Record<string, FilterMatcher<OrderRecord>>> = {
  status: match.oneOf((o) => o.status),
  id: match.oneOf((o) => o.id),
  public_id: match.oneOf((o) => o.publicId),
  // Case-insensitive.
  tracking_id: matchesKeyOf((value) => compactUuid(value.toLowerCase()), (order, key) => order.trackingKey === key),
  email: (o, value) => o.draft.email.toLowerCase() === String(value).toLowerCase(),
  from_requisite: requisiteMatches('from'),
  to_requisite: requisiteMatches('to'),
  created_from: match.atLeast((o) => o.createdAt.getTime()),
  created_to: match.atMost((o) => o.createdAt.getTime()),
  // A rates-file code of either side, compared as the catalog's code filters compare them.
  currency: (o, value) => typeof value === 'string' && (sameCode(o.draft.currencyIn, value) || sameCode(o.draft.currencyOut, value)),
  amount_min: match.atLeast((o) => o.draft.amountIn),
  amount_max: match.atMost((o) => o.draft.amountIn),
};
