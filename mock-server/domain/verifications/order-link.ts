// What an order learns of its verifications (OrderService.verificationChanged): one status for
// all the verifications it needs. An order may need an identity and a card verification; it is
// approved only when every needed one is, and a rejection or expiry of one speaks for the order.
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
    const latest = linked.filter((v) => v.type === type).at(-1);
    if (latest !== undefined) return latest.status;
    return type === 'identity' && verifications.hasApproved(order.clientId, type) ? approvedState : verificationMachine.initial;
  });
  if (statuses.every((status) => status === approvedState)) return approvedState;
  return precedence.find((status) => statuses.includes(status)) ?? verificationMachine.initial;
}
