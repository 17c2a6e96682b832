// The exchange orders of one sandbox: creation from a priced draft (order-request.ts), lookups by
// any of the three ids, the order machine fired by clients, staff (the control API), the
// verification service and the chain watcher (transactions to an order's payment address,
// order-payments.ts), the payment window and payment confirmations on the virtual clock (a queue
// of due orders, so a tick looks only at orders with something due), and the order.* webhook
// events each change emits through the sandbox's webhook engine. The machine is executed from the
// generated table (order-lifecycle.ts); this file keeps the records and emits. A snapshot's
// orders (order-state.ts) come back with every index and due timer rebuilt from the records.
import type { Order, OrderRequisites, VerificationStatus } from '../../../generated/exchange-v3/types.js';
import { orderMachine, type OrderEvent, type OrderState } from '../../../generated/machines.js';
import type { SandboxStateExchangeOrders } from '../../../generated/sandbox-control/types.js';
import type { Clock } from '../../clock.js';
import { createRandom, type Random } from '../../random.js';
import { DueQueue } from '../../store/due-queue.js';
import { compactUuid } from '../../store/compact-uuid.js';
import { contractDefaultSort } from '../../store/list-contract.js';
import { ListableCollection } from '../../store/list-records.js';
import { key } from '../../store/sort-keys.js';
import { ShardedMap } from '../../store/sharded-map.js';
import { tryFire, type FireResult } from '../machines/fire.js';
import { StateRejected } from '../state-rejected.js';
import { randomUuid } from '../webhooks/ids.js';
import type { EmitInput } from '../webhooks/webhook-service.js';
import { completedState, fireOrderEvent, newOrderRecord, pendingTimer, settleOrder, type StepListener } from './order-lifecycle.js';
import { paymentsDueAtMs, recordPayment, settlePayments, type PaymentChain } from './order-payments.js';
import { createdEventData, presentOrder, statusChangedEventData } from './order-present.js';
import { trackingId, type CausingRequest, type OrderDraft, type OrderRecord } from './order-records.js';
import { keptDigests } from './requisite-digests.js';
import { orderFromState, orderToState } from './order-state.js';
import { requireNextIdAbove } from './restore-checks.js';
import type { RecordMarks } from '../record-marks.js';
import { reportStoreFailure } from '../../store/report-store-failure.js';

/** Machine events a decided verification fires on an order held for it. */
const VERIFICATION_EVENTS: Partial<Record<VerificationStatus, OrderEvent>> = {
  approved: 'verification_approved',
  rejected: 'verification_rejected',
};
for (const event of Object.values(VERIFICATION_EVENTS)) {
  if (!orderMachine.transitions.some((t) => t.event === event)) throw new Error(`the order machine lacks the ${event} event`);
}

const publicIdAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** `prefix` and upper-case letters or digits, 10 in all (Order.public_id); the letter prefix keeps it from reading as a database id. */
export function newPublicId(random: Random, prefix: string): string {
  return `${prefix}${random.string(10 - prefix.length, publicIdAlphabet)}`;
}

export interface OrderServiceOptions {
  clock: Clock;
  /** The stream of order ids (seeded from the sandbox seed). */
  random: Random;
  /** Where order.* events go: the sandbox's webhook engine, read at each emission. */
  emit: (input: EmitInput) => Promise<unknown>;
  /** When the simulated chain confirms the transactions paid to orders. */
  chain: PaymentChain;
  /** The exchanger's reserves, which a completed order moves (the catalog). */
  reserves: ReserveBook;
  /** Where each order created or changed is reported (a durable store's journal). */
  marks: RecordMarks;
}

/** What a completed exchange changes beyond the order: the reserves of its route's two sides. */
export interface ReserveBook {
  payOut(routeId: number, amountIn: string, amountOut: string): void;
}

/** A transaction the chain watcher offers: it pays the order whose payment address (and memo) it names. */
export interface ChainPayment {
  hash: string;
  network: string;
  address: string;
  memo: string | null;
  amount: string;
}

export interface OrderFireOptions {
  /** The request that causes the event; none for the clock and staff (their events carry null ids). */
  cause?: CausingRequest;
  /** Take the transition whatever its guard says (the control API's override). */
  ignoreGuards?: boolean;
}

/** What a snapshot's orders refer to, checked as they are restored. */
export interface OrderReferences {
  /** Throws StateRejected naming `pointer` when no key has the client. */
  requireClient(clientId: string, pointer: string): void;
  isRoute(id: number): boolean;
  /** Whether the simulated chain holds the transaction (every payment of an order is one). */
  isTransaction(hash: string): boolean;
}

/** The partition listOrders reads: one client's orders. */
export const BY_CLIENT = 'client';

export class OrderService {
  /**
   * Every order of the sandbox, by database id, partitioned by client (each client's orders kept
   * in the contract's default listOrders sort); the sort fields are the contract's listOrders `sort` fields.
   */
  readonly collection = new ListableCollection<OrderRecord>({
    id: key.number((o) => o.id),
    fixedFields: ['id', 'created_at', 'amount_in', 'amount_out'],
    defaultSort: contractDefaultSort('v3', 'listOrders'),
    partitions: { [BY_CLIENT]: (o) => o.clientId },
    fields: {
      id: key.number((o) => o.id),
      created_at: key.number((o) => o.createdAt.getTime()),
      updated_at: key.number((o) => o.updatedAt.getTime()),
      completed_at: key.numberOrNull((o) => o.completedAt?.getTime() ?? null),
      // Decimal strings by value; float precision is ample for ordering, ties fall back to the id.
      amount_in: key.number((o) => Number(o.draft.amountIn)),
      amount_out: key.number((o) => Number(o.draft.amountOut)),
      status: key.string((o) => o.status),
    },
  });
  private readonly byPublicId = new ShardedMap<string, OrderRecord>();
  /** By tracking key (compactUuid of the tracking id). */
  private readonly byTrackingId = new ShardedMap<string, OrderRecord>();
  /** Payment destinations → the order paid there, by network, then by address (and memo: destinationKey). */
  private readonly byDestination = new Map<string, ShardedMap<string, OrderRecord>>();
  /** Transaction hashes the watcher credited → the order they paid. */
  private readonly byPaymentHash = new ShardedMap<string, OrderRecord>();
  private nextId = 1;
  private random: Random;
  private emitted: Promise<void> = Promise.resolve();
  /** Orders by the end of their pending timer (the payment window) or their payments' confirmation (tests read its metrics). */
  readonly timers = new DueQueue<OrderRecord>({
    dueAt: (o) => earliest(pendingTimer(o)?.at.getTime() ?? null, paymentsDueAtMs(o, this.options.chain)),
    creationOrder: (a, b) => a.id - b.id,
  });

  constructor(private readonly options: OrderServiceOptions) {
    this.random = options.random;
  }

  /** A new order in the machine's initial state; emits the machine's creation event (order.created). */
  create(clientId: string, draft: OrderDraft, cause: CausingRequest, requisites?: OrderRequisites): OrderRecord {
    const { random } = this;
    let publicId: string;
    do publicId = newPublicId(random, 'EX');
    while (this.byPublicId.has(publicId));
    const order = newOrderRecord(
      {
        id: this.nextId,
        publicId,
        trackingId: randomUuid(random),
        clientId,
        draft,
        correlationId: cause.correlationId,
        requisiteDigests: keptDigests(draft.requisites, requisites),
      },
      this.options.clock.now(),
    );
    this.nextId += 1;
    this.add(order);
    if (orderMachine.createdEmits !== null) this.emit(order, orderMachine.createdEmits, createdEventData(order), cause);
    return order;
  }

  /** The orders as a snapshot holds them; `withRecords` false: the orders left out (a journal's header). */
  exportState(withRecords = true): SandboxStateExchangeOrders {
    return { random: this.random.state(), nextId: this.nextId, orders: withRecords ? [...this.collection.values()].map(orderToState) : [] };
  }

  /** One order, by public id, as exportState lists it; undefined when there is none. */
  exportRecord(publicId: string): SandboxStateExchangeOrders['orders'][number] | undefined {
    const order = this.byPublicId.get(publicId);
    return order === undefined ? undefined : orderToState(order);
  }

  /**
   * Replaces the orders with the snapshot's (none is emitted again) and resumes the id counter
   * and the stream; throws StateRejected for a duplicate id, an unknown client, route or
   * transaction, or a status the machines do not have. Run after the chain is restored: the
   * due timers read when each payment is confirmed.
   */
  restoreState(state: SandboxStateExchangeOrders, references: OrderReferences, pointer: string): void {
    const records = state.orders.map((order, index) => {
      const at = `${pointer}/orders/${index}`;
      references.requireClient(order.clientId, `${at}/clientId`);
      if (!references.isRoute(order.draft.routeId)) throw new StateRejected(`${at}/draft/routeId`, `${order.draft.routeId} is not a route`);
      order.payments.forEach(({ hash }, p) => {
        if (!references.isTransaction(hash)) throw new StateRejected(`${at}/payments/${p}/hash`, `${hash} is not a chain transaction`);
      });
      return { record: orderFromState(order, at), at };
    });
    this.collection.clear();
    this.timers.clear();
    for (const index of [this.byPublicId, this.byTrackingId, this.byDestination, this.byPaymentHash]) index.clear();
    // Creation order, so the first order keeps a shared destination as it did.
    for (const { record, at } of records.sort((a, b) => a.record.id - b.record.id)) {
      if (this.collection.get(record.id) !== undefined) throw new StateRejected(`${at}/id`, `order ${record.id} is listed twice`);
      if (this.byPublicId.has(record.publicId)) throw new StateRejected(`${at}/publicId`, `${record.publicId} belongs to another order`);
      if (this.byTrackingId.has(record.trackingKey)) throw new StateRejected(`${at}/trackingId`, `${trackingId(record)} belongs to another order`);
      const paidTwice = record.payments.findIndex((p) => this.byPaymentHash.has(p.hash));
      if (paidTwice >= 0) throw new StateRejected(`${at}/payments/${paidTwice}/hash`, 'paid another order');
      this.add(record);
    }
    requireNextIdAbove(state.nextId, state.orders, `${pointer}/nextId`);
    this.nextId = state.nextId;
    this.random = createRandom(this.random.seed, state.random);
  }

  /** The client's order by id, public_id or tracking_id, brought up to date; undefined for another client's. */
  find(clientId: string, ref: string): OrderRecord | undefined {
    const order = this.findAny(ref);
    return order?.clientId === clientId ? order : undefined;
  }

  /** Any client's order by id, public_id or tracking_id (control API, inspector), brought up to date. */
  findAny(ref: string): OrderRecord | undefined {
    const order =
      (/^[1-9][0-9]*$/.test(ref) ? this.collection.get(Number(ref)) : undefined) ??
      this.byPublicId.get(ref) ??
      this.byTrackingId.get(compactUuid(ref.toLowerCase()));
    if (order !== undefined) this.settle(order);
    return order;
  }

  /** Fires a machine event now; the machine's reason when it refuses (nothing changes then). */
  fire(order: OrderRecord, event: OrderEvent, options: OrderFireOptions = {}): FireResult<OrderState, OrderEvent> {
    this.settle(order);
    return fireOrderEvent(order, event, this.options.clock.now(), { ignoreGuards: options.ignoreGuards ?? false }, this.recorder(options.cause));
  }

  /**
   * The verification the order needs changed status (EX-FILES): shown in `order.verification`;
   * an approval or rejection releases an order held for it.
   */
  verificationChanged(order: OrderRecord, status: VerificationStatus): void {
    this.settle(order);
    if (order.verificationStatus !== status) {
      order.verificationStatus = status;
      order.updatedAt = this.options.clock.now();
      this.changed(order);
    }
    const event = VERIFICATION_EVENTS[status];
    if (event !== undefined && tryFire(orderMachine, order.status, event).ok) this.fire(order, event);
  }

  /**
   * The chain watcher offers a transaction no deposit took: the order whose payment address (and
   * memo, when the order has one) it pays records it, and is paid once it is confirmed. Returns
   * that order, or null when it pays no order.
   */
  receivePayment(tx: ChainPayment): OrderRecord | null {
    const onNetwork = this.byDestination.get(tx.network);
    const order = onNetwork?.get(destinationKey(tx.address, tx.memo)) ?? onNetwork?.get(destinationKey(tx.address, null));
    if (order === undefined || (order.draft.paymentDetails.memo !== null && order.draft.paymentDetails.memo !== tx.memo)) return null;
    this.settle(order);
    recordPayment(order, tx, this.options.clock.now());
    this.byPaymentHash.set(tx.hash, order);
    this.changed(order);
    this.settle(order);
    return order;
  }

  /** A transaction that paid an order gained confirmations: the order may be paid now. */
  paymentConfirmationsChanged(hash: string): void {
    const order = this.byPaymentHash.get(hash);
    if (order === undefined) return;
    this.timers.schedule(order);
    this.settle(order);
  }

  /** The client of the order with this public id, without bringing the order up to date (a snapshot's reviews refer to orders). */
  clientOf(publicId: string): string | undefined {
    return this.byPublicId.get(publicId)?.clientId;
  }

  /** The order a chain transaction paid, if any (the control API's view of a transaction). */
  paidBy(hash: string): OrderRecord | undefined {
    return this.byPaymentHash.get(hash);
  }

  /** The client's orders, oldest first (partner statistics), brought up to date. */
  ordersOf(clientId: string): Iterable<OrderRecord> {
    this.tick();
    return this.collection.index([{ field: 'id', direction: 'asc' }], { partition: BY_CLIENT, key: clientId }).values();
  }

  present(order: OrderRecord): Order {
    return presentOrder(order);
  }

  /** Applies every timed transition now due: only the orders the queue says are due. */
  tick(): void {
    const due = this.timers.takeDue(this.options.clock.nowMs());
    for (const order of due) this.settle(order);
  }

  /** Resolves once every order.* event emitted so far is stored with its deliveries. */
  flush(): Promise<void> {
    return this.emitted;
  }

  /** Indexes an order by each of its ids, its payment destination and payments, and schedules its timers. */
  private add(order: OrderRecord): void {
    this.byPublicId.set(order.publicId, order);
    this.byTrackingId.set(order.trackingKey, order);
    const { network, address, memo } = order.draft.paymentDetails;
    // The first order keeps a destination (drawn addresses never repeat; hand-made drafts may).
    if (network !== null && address !== null) {
      let onNetwork = this.byDestination.get(network);
      if (onNetwork === undefined) this.byDestination.set(network, (onNetwork = new ShardedMap()));
      const key = destinationKey(address, memo);
      if (!onNetwork.has(key)) onNetwork.set(key, order);
    }
    for (const payment of order.payments) this.byPaymentHash.set(payment.hash, order);
    this.changed(order);
  }

  /** After any change to an order: re-index it, reschedule its timers and mark it for the journal. */
  private changed(order: OrderRecord): void {
    this.collection.upsert(order);
    this.timers.schedule(order);
    this.options.marks.changed('order', order.publicId);
  }

  /** Applies what is due by now: the payment window, then the payment once its transactions are confirmed. */
  private settle(order: OrderRecord): void {
    const now = this.options.clock.now();
    settleOrder(order, now, this.recorder(undefined));
    const payments = settlePayments(order, this.options.chain, now);
    if (payments.fire !== null) fireOrderEvent(order, payments.fire.event, payments.fire.at, {}, this.recorder(undefined));
    else if (payments.changed) this.changed(order);
  }

  /** After each transition: re-index the order and emit the transition's event with the cause's ids. */
  private recorder(cause: CausingRequest | undefined): StepListener {
    return (order, step) => {
      this.changed(order);
      if (step.transition.to === completedState) this.options.reserves.payOut(order.draft.routeId, order.draft.amountIn, order.draft.amountOut);
      if (step.transition.emits !== null) this.emit(order, step.transition.emits, statusChangedEventData(order, step), cause);
    };
  }

  /** Queues the event with the order as it is now; events leave in the order they happened. */
  private emit(order: OrderRecord, type: string, payload: Record<string, unknown>, cause: CausingRequest | undefined): void {
    const input: EmitInput = {
      clientId: order.clientId,
      type,
      resource: { type: 'order', id: order.id },
      payload,
      requestId: cause?.requestId ?? null,
      correlationId: cause?.correlationId ?? null,
      idempotencyKey: cause?.idempotencyKey ?? null,
    };
    this.emitted = this.emitted
      .then(() => this.options.emit(input))
      .then(
        () => undefined,
        (error: unknown) => {
          reportStoreFailure(`order ${order.id}: ${type} was not emitted`, error);
        },
      );
  }
}

/**
 * Where a payment lands on a network: the address itself when there is no memo (the order's own
 * string, so the index costs no string per order), else the address and the memo.
 */
function destinationKey(address: string, memo: string | null): string {
  return memo === null ? address : JSON.stringify([address, memo]);
}

function earliest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.min(a, b);
}
