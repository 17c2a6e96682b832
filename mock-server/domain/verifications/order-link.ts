// What an order learns of its verifications (OrderService.verificationChanged): one status for
// all the verifications it needs. An order may need an identity and a card verification; it is
// approved only when every needed type is (one approved verification of a type passes it), and
// otherwise the newest verification of each type speaks for the order, an ended one first.
import type { VerificationStatus, VerificationType } from '../../../generated/exchange-v3/types.js';
import { verificationMachine } from '../../../generated/machines.js';
import type { OrderRecord } from '../exchange/order-records.js';
import { approvedState, type VerificationRecord } from './verification-records.js';

/** What the verifications need of the orders (the order service has it). */
export interface OrdersAwaitingVerification {
  /** Any client's order by id, public_id or tracking_id, brought up to date. */
  findAny(ref: string): OrderRecord | undefined;
  /** Shows the status on the order; an approval or rejection releases an order held for it. */
  verificationChanged(order: OrderRecord, status: VerificationStatus): void;
}

/** The verifications of an order and whether the client passed a type before (an approved identity). */
export interface OrderVerifications {
  ofOrder(clientId: string, orderId: number): VerificationRecord[];
  hasApproved(clientId: string, type: VerificationType): boolean;
}

// Which status speaks for the order when its needed verifications differ: an ended one first
// (the order cannot go on), then one under review, then pending.
const precedence: readonly VerificationStatus[] = ['rejected', 'expired', 'in_review', 'pending'];

export function reportToOrder(orders: OrdersAwaitingVerification, verifications: OrderVerifications, changed: VerificationRecord): void {
  if (changed.orderId === null) return;
  const order = orders.findAny(String(changed.orderId));
  if (order === undefined || order.clientId !== changed.clientId) return;
  orders.verificationChanged(order, orderStatus(order, verifications));
}

function orderStatus(order: OrderRecord, verifications: OrderVerifications): VerificationStatus {
  const linked = verifications.ofOrder(order.clientId, order.id);
  const required = (Object.keys(order.draft.verificationRequired) as VerificationType[]).filter((type) => order.draft.verificationRequired[type]);
  const types = required.length > 0 ? required : [...new Set(linked.map((v) => v.type))];
  const statuses = types.map((type): VerificationStatus => {
    const ofType = linked.filter((v) => v.type === type);
    // A type is passed once one verification of it is approved, whatever a later one started for
    // the same order shows: the requirements then call it met. An identity approved for no order
    // (or another one) passes it too; a card must be approved for this order (the order's card).
    if (ofType.some((v) => v.status === approvedState)) return approvedState;
    if (type === 'identity' && verifications.hasApproved(order.clientId, type)) return approvedState;
    return ofType.at(-1)?.status ?? verificationMachine.initial;
  });
  if (statuses.every((status) => status === approvedState)) return approvedState;
  return precedence.find((status) => statuses.includes(status)) ?? verificationMachine.initial;
}
