// An exchange order as the mock keeps it: the priced draft it was created from (order-request.ts),
// its three ids, its place in the order machine (contracts/machines/order.yaml, executed by
// order-lifecycle.ts) and its history. Presentation is in order-present.ts.
import type { MaskedOrderRequisites, VerificationStatus } from '../../../generated/exchange-v3/types.js';
import type { Actor, OrderEvent, OrderState } from '../../../generated/machines.js';
import { expandUuid } from '../../store/compact-uuid.js';
import type { OrderDraft } from './order-request.js';
import type { KeptDigests } from './requisite-digests.js';

export type { OrderDraft };

/**
 * The ids of the request that causes an order event (request id, X-Correlation-Id,
 * Idempotency-Key). The same shape as handlers/v3-request.ts CausingRequest, declared here so
 * domain/ does not import from handlers/.
 */
export interface CausingRequest {
  requestId: string;
  correlationId: string | null;
  idempotencyKey: string | null;
}

/** One change of status; the creation is `event: 'create'` from null. */
export interface OrderHistoryEntry {
  from: OrderState | null;
  to: OrderState;
  event: OrderEvent | 'create';
  at: Date;
  actor: Actor;
}

/** A transaction to the order's payment address, as the exchanger's chain watcher saw it. */
export interface OrderPayment {
  hash: string;
  amount: string;
  seenAt: Date;
  /** When it reached the network's required confirmations; null until the order saw that. */
  confirmedAt: Date | null;
}

export interface OrderRecord {
  readonly id: number;
  /** `EX` and 8 upper-case letters or digits: never all digits, so it never reads as a database id. */
  readonly publicId: string;
  /** The tracking id (a uuid) as compactUuid keeps it (store/compact-uuid.ts): trackingId() reads it. */
  readonly trackingKey: string;
  readonly clientId: string;
  readonly draft: OrderDraft;
  /** X-Correlation-Id of the creating request. */
  readonly correlationId: string | null;
  /** SHA-256 of the unmasked requisites the order does not keep in clear (requisite-digests.ts), for the list's exact from/to_requisite filters. */
  readonly requisiteDigests: KeptDigests;
  readonly createdAt: Date;
  status: OrderState;
  /** When the order entered its status: the machine's timers run from here. */
  statusSince: Date;
  /** The exchanger has seen the client's payment (the machine's payment_received guard). */
  paymentReceived: boolean;
  /** Transactions the chain watcher saw at the payment address, oldest first (order-payments.ts); replaced, never changed in place. */
  payments: readonly OrderPayment[];
  /** Status of the verification the order needs, as EX-FILES reports it; null until one is started. */
  verificationStatus: VerificationStatus | null;
  /** What the client sent with confirm and cancel (shown to staff, e.g. the inspector). */
  paymentReference: string | null;
  cancelReason: string | null;
  updatedAt: Date;
  completedAt: Date | null;
  /**
   * The history after the creation, oldest first (orderHistory in order-lifecycle.ts adds the
   * creation, which every order has alike); replaced, never changed in place. Starts with a
   * creation entry of its own only when a snapshot gave one unlike the derived one.
   */
  steps: readonly OrderHistoryEntry[];
}

// Values most orders hold alike, kept once and shared (a sandbox may keep a million orders, and
// each of these objects costs 40 to 56 bytes an order); frozen, as nothing changes them in place.
const noRequisites: MaskedOrderRequisites = Object.freeze({});
const verificationFlags = [false, true].map((identity) => [false, true].map((card) => Object.freeze({ identity, card })));
export const noPayments: readonly OrderPayment[] = Object.freeze([]);
export const noSteps: readonly OrderHistoryEntry[] = Object.freeze([]);

/**
 * The draft as an order keeps it: the same values, the common ones shared (above), every field
 * set in one literal so every kept draft has the same hidden class.
 */
export function keptDraft(draft: OrderDraft): OrderDraft {
  const { identity, card } = draft.verificationRequired;
  return {
    routeId: draft.routeId,
    quoteId: draft.quoteId,
    amountIn: draft.amountIn,
    amountOut: draft.amountOut,
    rate: draft.rate,
    fee: draft.fee,
    currencyIn: draft.currencyIn,
    currencyOut: draft.currencyOut,
    paymentDetails: draft.paymentDetails,
    requisites: Object.keys(draft.requisites).length === 0 ? noRequisites : draft.requisites,
    fromRequisite: draft.fromRequisite,
    toRequisite: draft.toRequisite,
    email: draft.email,
    clientOrderId: draft.clientOrderId,
    verificationRequired: verificationFlags[Number(identity)]![Number(card)]!,
  };
}

/** The order's tracking id, as given at its creation. */
export function trackingId(order: Pick<OrderRecord, 'trackingKey'>): string {
  return expandUuid(order.trackingKey);
}

export function needsVerification(order: Pick<OrderRecord, 'draft'>): boolean {
  return order.draft.verificationRequired.identity || order.draft.verificationRequired.card;
}
