// The order machine (generated/machines.ts, from contracts/machines/order.yaml) applied to an
// OrderRecord: this file decides which guards hold and when a timer falls due; fire.ts and the
// table decide the transition. Shared by the live orders (order-service.ts) and the scratch
// orders of the sandbox simulation (order-simulation.ts), so both follow exactly the same rules.
import { orderMachine, type Actor, type OrderEvent, type OrderState, type Transition } from '../../../generated/machines.js';
import { compactUuid } from '../../store/compact-uuid.js';
import { tryFire, type FireResult } from '../machines/fire.js';
import { keptDraft, needsVerification, noPayments, noSteps, type OrderDraft, type OrderHistoryEntry, type OrderRecord } from './order-records.js';

// Names of the machine file this code gives meaning to; checked against the generated table at load.
const VERIFICATION_REQUIRED = 'verification_required';
const PAYMENT_RECEIVED = 'payment_received';
const NO_PAYMENT_SEEN = 'no_payment_seen';
/** The event by which the exchanger sees the payment: from then on payment_received holds. */
const PAYMENT_EVENT: OrderEvent = 'pay';
/** Who the history names for an order's creation (no transition of the machine: the client's createOrder). */
export const creationActor: Actor = 'client';
/** The state whose entry sets completed_at: the payout was sent. */
export const completedState: OrderState = 'completed';

for (const guard of [VERIFICATION_REQUIRED, PAYMENT_RECEIVED, NO_PAYMENT_SEEN]) {
  if (!(guard in orderMachine.guards)) throw new Error(`the order machine lacks the ${guard} guard`);
}
if (!orderMachine.transitions.some((t) => t.event === PAYMENT_EVENT)) throw new Error(`the order machine lacks the ${PAYMENT_EVENT} event`);
if (pendingTimer({ status: orderMachine.initial, statusSince: new Date(0), payments: noPayments }) === null) {
  throw new Error(`the order machine has no timer from ${orderMachine.initial} (the payment window)`);
}
if (!orderMachine.terminal.includes(completedState)) throw new Error(`the order machine lacks the terminal state ${completedState}`);

export type OrderTransition = Transition<OrderState, OrderEvent>;

/** One transition as it was applied to an order. */
export interface OrderStep {
  transition: OrderTransition;
  at: Date;
}

/** Called after each transition is applied (the order already shows its new status). */
export type StepListener = (order: OrderRecord, step: OrderStep) => void;

type TimedState = Pick<OrderRecord, 'status' | 'statusSince' | 'payments'>;

/** The guards a timer's transition may have: they hold for what the order saw so far. */
function timerGuards(order: Pick<OrderRecord, 'payments'>): Record<string, boolean> {
  return { [NO_PAYMENT_SEEN]: order.payments.length === 0 };
}

/** The guards of the machine file, as they hold for the order now. */
export function orderGuards(order: OrderRecord): Record<string, boolean> {
  return {
    [VERIFICATION_REQUIRED]: needsVerification(order) && order.verificationStatus !== 'approved',
    [PAYMENT_RECEIVED]: order.paymentReceived,
    ...timerGuards(order),
  };
}

/**
 * The timed transition pending from the order's status and the instant it falls due; null when
 * none (or its guard does not hold: a payment seen in time stops the payment window).
 */
export function pendingTimer(order: TimedState): { transition: OrderTransition; at: Date } | null {
  const guards = timerGuards(order);
  const transition = orderMachine.transitions.find((t) => t.from === order.status && t.timer !== null && (t.guard === null || guards[t.guard] === true));
  if (transition === undefined) return null;
  const seconds = orderMachine.timers[transition.timer ?? '']?.seconds;
  if (seconds === undefined) throw new Error(`the order machine's timer ${transition.timer} has no seconds`);
  return { transition, at: new Date(order.statusSince.getTime() + seconds * 1000) };
}

export interface NewOrderFields {
  id: number;
  publicId: string;
  trackingId: string;
  clientId: string;
  draft: OrderDraft;
  correlationId: string | null;
  requisiteDigests: OrderRecord['requisiteDigests'];
}

/** A new order in the machine's initial state, created at `now` (creation is not a transition). */
export function newOrderRecord(fields: NewOrderFields, now: Date): OrderRecord {
  // Every field named in one literal (no spread): V8 then gives every order the same hidden
  // class, where spreading `fields` gave each order a map and descriptor array of its own (~700 B).
  return {
    id: fields.id,
    publicId: fields.publicId,
    trackingKey: compactUuid(fields.trackingId),
    clientId: fields.clientId,
    draft: keptDraft(fields.draft),
    correlationId: fields.correlationId,
    requisiteDigests: fields.requisiteDigests,
    status: orderMachine.initial,
    statusSince: now,
    createdAt: now,
    paymentReceived: false,
    payments: noPayments,
    verificationStatus: null,
    paymentReference: null,
    cancelReason: null,
    updatedAt: now,
    completedAt: null,
    steps: noSteps,
  };
}

/** The creation as the history shows it: no transition of the machine, from null to its initial state. */
export function creationEntry(order: Pick<OrderRecord, 'createdAt'>): OrderHistoryEntry {
  return { from: null, to: orderMachine.initial, event: 'create', at: order.createdAt, actor: creationActor };
}

/**
 * Every change of status, the creation first. The creation is derived rather than kept: an array
 * and an entry for it cost every order about 120 bytes, and a sandbox may keep a million.
 */
export function orderHistory(order: Pick<OrderRecord, 'createdAt' | 'steps'>): readonly OrderHistoryEntry[] {
  return order.steps[0]?.from === null ? order.steps : [creationEntry(order), ...order.steps];
}

/**
 * End of the payment window (payment_details.expires_at): the initial state's timer, run from the
 * creation. Derived when shown rather than kept, since every order would keep a Date for it.
 */
export function paymentExpiresAt(order: Pick<OrderRecord, 'createdAt'>): Date {
  // Never null: checked when this module loads.
  return pendingTimer({ status: orderMachine.initial, statusSince: order.createdAt, payments: noPayments })!.at;
}

/**
 * Fires `event` on the order at `at`: the machine's transition (guards evaluated on the order,
 * or overridden), then the automatic transitions it opens; or the machine's reason to refuse.
 */
export function fireOrderEvent(
  order: OrderRecord,
  event: OrderEvent,
  at: Date,
  options: { ignoreGuards?: boolean },
  onStep: StepListener,
): FireResult<OrderState, OrderEvent> {
  const result = tryFire(orderMachine, order.status, event, { guards: orderGuards(order), ignoreGuards: options.ignoreGuards ?? false });
  if (!result.ok) return result;
  apply(order, result.transition, at, onStep);
  followAutomatic(order, at, onStep);
  return result;
}

/** Applies the timed transitions due by `now` (the payment window), each at the instant it fell due. */
export function settleOrder(order: OrderRecord, now: Date, onStep: StepListener): void {
  for (let step = 0; step < 16; step += 1) {
    const due = pendingTimer(order);
    if (due === null || due.at.getTime() > now.getTime()) return;
    apply(order, due.transition, due.at, onStep);
    followAutomatic(order, due.at, onStep);
  }
  throw new Error(`order ${order.id} did not settle`);
}

/** The order's automatic transitions: the system's guarded ones, taken as soon as their guard holds (paid → verification_hold). */
export function followAutomatic(order: OrderRecord, at: Date, onStep: StepListener): void {
  for (let step = 0; step < 16; step += 1) {
    const guards = orderGuards(order);
    const next = orderMachine.transitions.find(
      (t) => t.from === order.status && t.actor === 'system' && t.timer === null && t.guard !== null && guards[t.guard] === true,
    );
    if (next === undefined) return;
    apply(order, next, at, onStep);
  }
  throw new Error(`order ${order.id} did not settle`);
}

function apply(order: OrderRecord, transition: OrderTransition, at: Date, onStep: StepListener): void {
  order.steps = [...order.steps, { from: order.status, to: transition.to, event: transition.event, at, actor: transition.actor }];
  order.status = transition.to;
  order.statusSince = at;
  order.updatedAt = at;
  if (transition.event === PAYMENT_EVENT) order.paymentReceived = true;
  if (transition.to === completedState) order.completedAt = at;
  onStep(order, { transition, at });
}
