// An order record as a sandbox snapshot holds it, and back: instants as epoch milliseconds, and
// on the way back every status, event and actor checked against the order machine (and the
// verification status against the verification machine), since the document keeps them as
// plain strings. What the record derives (the end of the payment window) is derived again.
import type { MaskedOrderRequisites, VerificationStatus } from '../../../generated/exchange-v3/types.js';
import { orderMachine, verificationMachine, type Actor, type OrderEvent } from '../../../generated/machines.js';
import type { SandboxStateExchangeOrder } from '../../../generated/sandbox-control/types.js';
import { requireOneOf, StateRejected } from '../state-rejected.js';
import { creationActor, creationEntry, newOrderRecord, orderHistory } from './order-lifecycle.js';
import { noSteps, trackingId, type OrderHistoryEntry, type OrderPayment, type OrderRecord } from './order-records.js';
import { digestsFromState, digestsToState } from './requisite-digests.js';

/** The history's first entry: the creation, which is no transition of the machine. */
const CREATE = 'create';
const events: readonly (OrderEvent | typeof CREATE)[] = [CREATE, ...new Set(orderMachine.transitions.map((t) => t.event))];
const actors: readonly Actor[] = [...new Set([creationActor, ...orderMachine.transitions.map((t) => t.actor)])];

const ms = (date: Date): number => date.getTime();
const msOrNull = (date: Date | null): number | null => date?.getTime() ?? null;
const dateOrNull = (epochMs: number | null): Date | null => (epochMs === null ? null : new Date(epochMs));

export function orderToState(order: OrderRecord): SandboxStateExchangeOrder {
  return {
    id: order.id,
    publicId: order.publicId,
    trackingId: trackingId(order),
    clientId: order.clientId,
    draft: { ...order.draft, paymentDetails: { ...order.draft.paymentDetails }, requisites: { ...order.draft.requisites }, verificationRequired: { ...order.draft.verificationRequired } },
    correlationId: order.correlationId,
    requisiteDigests: digestsToState(order.draft.requisites, order.requisiteDigests),
    createdAtMs: ms(order.createdAt),
    status: order.status,
    statusSinceMs: ms(order.statusSince),
    paymentReceived: order.paymentReceived,
    payments: order.payments.map((p) => ({ hash: p.hash, amount: p.amount, seenAtMs: ms(p.seenAt), confirmedAtMs: msOrNull(p.confirmedAt) })),
    verificationStatus: order.verificationStatus,
    paymentReference: order.paymentReference,
    cancelReason: order.cancelReason,
    updatedAtMs: ms(order.updatedAt),
    completedAtMs: msOrNull(order.completedAt),
    history: orderHistory(order).map((h) => ({ from: h.from, to: h.to, event: h.event, atMs: ms(h.at), actor: h.actor })),
  };
}

/** The record of a snapshot's order at `pointer`; throws StateRejected for a status, event or actor the machines do not have. */
export function orderFromState(state: SandboxStateExchangeOrder, pointer: string): OrderRecord {
  const { draft } = state;
  const created = newOrderRecord(
    {
      id: state.id,
      publicId: state.publicId,
      trackingId: state.trackingId,
      clientId: state.clientId,
      draft: { ...draft, requisites: draft.requisites as MaskedOrderRequisites },
      correlationId: state.correlationId,
      requisiteDigests: digestsFromState(draft.requisites as MaskedOrderRequisites, state.requisiteDigests),
    },
    new Date(state.createdAtMs),
  );
  // Instants equal to the creation share its Date, as a live order's do (a Date is about 100 bytes).
  const instant = (epochMs: number): Date => (epochMs === state.createdAtMs ? created.createdAt : new Date(epochMs));
  // Assigned over the new record's fields rather than spread into a copy: the record keeps the
  // hidden class every order shares (a spread copy gets one of its own).
  return Object.assign(created, {
    status: requireOneOf(state.status, orderMachine.states, `${pointer}/status`),
    statusSince: instant(state.statusSinceMs),
    paymentReceived: state.paymentReceived,
    payments: state.payments.map((p): OrderPayment => ({ hash: p.hash, amount: p.amount, seenAt: new Date(p.seenAtMs), confirmedAt: dateOrNull(p.confirmedAtMs) })),
    verificationStatus:
      state.verificationStatus === null ? null : (requireOneOf(state.verificationStatus, verificationMachine.states, `${pointer}/verificationStatus`) as VerificationStatus),
    paymentReference: state.paymentReference,
    cancelReason: state.cancelReason,
    updatedAt: instant(state.updatedAtMs),
    completedAt: dateOrNull(state.completedAtMs),
    steps: keptSteps(created, state.history.map((h, index) => historyEntry(h, `${pointer}/history/${index}`)), `${pointer}/history`),
  });
}

/**
 * The history as the record keeps it: without its creation when that is the one orderHistory
 * derives (whole otherwise, so that it reads back the same); it must begin with a creation.
 */
function keptSteps(order: Pick<OrderRecord, 'createdAt'>, history: OrderHistoryEntry[], pointer: string): readonly OrderHistoryEntry[] {
  const [first, ...rest] = history;
  if (first?.from !== null) throw new StateRejected(`${pointer}/0/from`, `is null: a history begins with the order's creation`);
  const derived = creationEntry(order);
  const derivable = first.to === derived.to && first.event === derived.event && first.at.getTime() === derived.at.getTime() && first.actor === derived.actor;
  if (!derivable || rest[0]?.from === null) return history;
  return rest.length === 0 ? noSteps : rest;
}

function historyEntry(entry: SandboxStateExchangeOrder['history'][number], pointer: string): OrderHistoryEntry {
  const event = requireOneOf(entry.event, events, `${pointer}/event`);
  if ((entry.from === null) !== (event === CREATE)) throw new StateRejected(`${pointer}/from`, `is null exactly when the event is ${CREATE}`);
  return {
    from: entry.from === null ? null : requireOneOf(entry.from, orderMachine.states, `${pointer}/from`),
    to: requireOneOf(entry.to, orderMachine.states, `${pointer}/to`),
    event,
    at: new Date(entry.atMs),
    actor: requireOneOf(entry.actor, actors, `${pointer}/actor`),
  };
}
