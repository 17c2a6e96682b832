// Which fields of an order's `requisites` each side of a route needs (capabilities'
// `requisites.from` / `requisites.to`): a crypto payout needs an address (and the memo of memo
// networks), a card side the card number and holder, a bank side the account and holder, an
// e-money side the account. A crypto give side needs nothing: the client pays to the order's
// deposit address.
import type { OrderRequisites } from '../../../../generated/exchange-v3/types.js';
import { requireNetwork } from '../../deposits/networks.js';
import type { RouteRecord } from './catalog-records.js';
import type { PaymentSystemSpec } from './payment-system-data.js';

export type RequisiteField = keyof OrderRequisites;

export function giveRequisites(spec: PaymentSystemSpec): RequisiteField[] {
  switch (spec.kind) {
    case 'crypto':
      return [];
    case 'card':
      return ['from_card_number', 'holder_name'];
    case 'bank':
      return ['from_account', 'holder_name'];
    case 'emoney':
      return ['from_account'];
  }
}

export function receiveRequisites(spec: PaymentSystemSpec): RequisiteField[] {
  switch (spec.kind) {
    case 'crypto':
      return spec.network !== null && requireNetwork(spec.network).memoRequired ? ['to_address', 'to_memo'] : ['to_address'];
    case 'card':
      return ['to_card_number', 'holder_name'];
    case 'bank':
      return ['to_account', 'holder_name'];
    case 'emoney':
      return ['to_account'];
  }
}

/** Every field an order on the route needs, give side first, each once. */
export function routeRequisites(route: RouteRecord): RequisiteField[] {
  return [...new Set([...giveRequisites(route.from.spec), ...receiveRequisites(route.to.spec)])];
}
