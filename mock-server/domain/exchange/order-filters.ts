// How each filter of listOrders (the contract's `filter[...]` parameters) matches an order.
// filterPredicate fails loudly for a filter the contract declares and this table lacks.
import { compactUuid } from '../../store/compact-uuid.js';
import { match, type FilterMatcher } from '../../store/list-records.js';
import type { OrderRecord } from './order-records.js';
import { requisiteIs, type RequisiteSide } from './requisite-digests.js';

const digestMatches =
  (side: RequisiteSide): FilterMatcher<OrderRecord> =>
  (order, value) =>
    requisiteIs(order.draft.requisites, order.requisiteDigests, side, String(value));

/** The tracking id filter (case-insensitive); the key of the value asked is made once per value, not per order. */
function trackingKeyMatches(): FilterMatcher<OrderRecord> {
  let asked: string | undefined;
  let key = '';
  return (order, value) => {
    const lower = String(value).toLowerCase();
    if (lower !== asked) [asked, key] = [lower, compactUuid(lower)];
    return order.trackingKey === key;
  };
}

export const orderFilterMatchers: Readonly<Record<string, FilterMatcher<OrderRecord>>> = {
  status: match.oneOf((o) => o.status),
  id: match.oneOf((o) => o.id),
  public_id: match.oneOf((o) => o.publicId),
  tracking_id: trackingKeyMatches(),
  email: (o, value) => o.draft.email.toLowerCase() === String(value).toLowerCase(),
  from_requisite: digestMatches('from'),
  to_requisite: digestMatches('to'),
  created_from: match.atLeast((o) => o.createdAt.getTime()),
  created_to: match.atMost((o) => o.createdAt.getTime()),
  currency: (o, value) => o.draft.currencyIn === value || o.draft.currencyOut === value,
  amount_min: match.atLeast((o) => o.draft.amountIn),
  amount_max: match.atMost((o) => o.draft.amountIn),
};
