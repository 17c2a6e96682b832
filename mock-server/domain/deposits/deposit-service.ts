// The v1 deposits of one sandbox: creation (idempotent by site, order_id and asset), lookups,
// the history list, refresh, and the deposit machine EXECUTED from the generated table
// (generated/machines.ts, from contracts/machines/deposit.yaml): this file only decides which
// event happens and which guards hold; the table decides the target state and the deposit.*
// event it emits. Time-driven events (confirmations accruing, the lifetime ending) are applied
// at the instant they fall due, whenever the deposit is next looked at: by a tick (a clock
// advance, the running server's timer, a list) that takes the due deposits from the store (a queue
// ordered by that instant, or an index), on a read, or when a transaction arrives. The deposits
// are kept by the engine's store (store/deposit-store.ts: in memory, or on a sqlite: file until
// read); the service mutates the records the store hands out and reports each change to it.
import { operationExtension } from '../../bundled-contracts.js';
import { depositMachine, type DepositEvent, type DepositState, type Transition } from '../../../generated/machines.js';
import type { SandboxStateChainTransaction, SandboxStateDeposit } from '../../../generated/sandbox-control/types.js';
import type { Clock } from '../../clock.js';
import { compareAmounts } from '../../decimal.js';
import { createRandom, type Random } from '../../random.js';
import { BY_SITE, BY_STATIC_ADDRESS, destinationKey, type DepositFields, type DepositStore, type LazyDepositStore } from '../../store/deposit-store.js';
import { flatString } from '../../store/flat-string.js';
import type { ListedPage } from '../../store/list-records.js';
import type { ListFamily, ListRequest } from '../../store/list-query.js';
import type { Site } from '../accounts/sites.js';
import { StateRejected } from '../state-rejected.js';
import { randomUuid } from '../webhooks/ids.js';
import { emitSiteEvent, type SiteWebhookContext } from '../webhooks/site-endpoint.js';
import { assets, type AssetDefinition } from './assets.js';
import { createChainData, type ChainData } from './chain-data.js';
import { SimulatedChain, type ChainTransaction, type InjectInput } from './chain-simulator.js';
import { depositView, noneCredited, receivedAmount, type DepositRecord } from './deposit-records.js';
import { depositOf, depositState, type DepositReferences } from './deposit-state.js';
import { networks, requireNetwork, type NetworkCode } from './networks.js';
import type { RecordMarks } from '../record-marks.js';
import { SerializedViews } from '../serialized-views.js';
import { OrderedShardedMap } from '../../store/ordered-sharded-map.js';
import type { SerializedJson } from '../../../generated/runtime/serialized-json.js';
import type { Deposit } from '../../../generated/deposit-v1/types.js';
import { reportStoreFailure } from '../../store/report-store-failure.js';

// Timer and guard names of the machine file; checked against the generated table at load.
const LIFETIME = 'lifetime';
const LATE_WINDOW = 'late_window';
const GUARDS = ['amount_matches', 'amount_exceeds', 'amount_short', 'within_late_window', 'transaction_found'] as const;
type GuardName = (typeof GUARDS)[number];

/**
 * How many listed deposits' serialised views are kept: the pages a sandbox's clients poll (a few
 * hundred KB at most), not every deposit ever listed.
 */
const listedViewsKept = 512;

const lifetimeSeconds = depositMachine.timers[LIFETIME]?.seconds;
const lateWindowSeconds = depositMachine.timers[LATE_WINDOW]?.seconds;
if (lifetimeSeconds === undefined || lateWindowSeconds === undefined) {
  throw new Error(`the deposit machine lacks the ${LIFETIME} or ${LATE_WINDOW} timer`);
}
for (const guard of GUARDS) {
  if (!(guard in depositMachine.guards)) throw new Error(`the deposit machine lacks the ${guard} guard`);
}

/** The machine's default lifetime, in seconds (createDeposit without `lifetime`). */
export const defaultLifetimeSeconds: number = lifetimeSeconds;
/** refreshDeposit: at most once per this many seconds per deposit (its x-rate-limit in the contract). */
export const refreshIntervalSeconds = readRefreshInterval();

function readRefreshInterval(): number {
  const limit = operationExtension('deposit-v1', 'refreshDeposit', 'x-rate-limit') as { interval_seconds?: unknown } | undefined;
  if (typeof limit?.interval_seconds !== 'number') throw new Error('the deposit contract lacks refreshDeposit x-rate-limit.interval_seconds');
  return limit.interval_seconds;
}

type DepositTransition = Transition<DepositState, DepositEvent>;
type Guards = Partial<Record<GuardName, boolean>>;

/** The generated transition for (status, event) whose guard holds; null when none (or several) does. */
export function transitionFor(status: DepositState, event: DepositEvent, guards: Guards = {}): DepositTransition | null {
  const open = depositMachine.transitions.filter(
    (t) => t.from === status && t.event === event && (t.guard === null || guards[t.guard as GuardName] === true),
  );
  return open.length === 1 ? open[0]! : null;
}

export interface CreateDepositInput {
  orderId: string;
  asset: AssetDefinition;
  amount: string | null;
  lifetimeSeconds: number;
}

/** A transaction to a static address: the payment deposit to create for it (static-address-service.ts). */
export interface StaticPaymentClaim {
  site: Site;
  orderId: string;
  asset: string;
  staticAddress: { uuid: string; orderId: string };
}

/** What the static addresses hook into the watcher: claim a transaction first, hear of a payment's final state. */
export interface StaticPaymentHooks {
  claim(tx: ChainTransaction): StaticPaymentClaim | null;
  final(deposit: DepositRecord, atMs: number): void;
}

/**
 * Payments to addresses that are not deposits' (the orders' pay-in addresses): the watcher offers
 * them each transaction no deposit takes, and tells them when one they took gains confirmations.
 */
export interface OtherPayments {
  /** Takes the transaction when it pays one of their addresses. */
  claim(tx: ChainTransaction): boolean;
  confirmationsAdded(tx: ChainTransaction): void;
}

export type RefreshOutcome = { ok: true; deposit: DepositRecord } | { ok: false; retryAfterSeconds: number };

export interface DepositServiceOptions {
  clock: Clock;
  /** The random source of deposits and of the simulated chain (seeded from the sandbox seed). */
  random: Random;
  /** Where deposit.* events go (read at each emission: the engine of the sandbox). */
  webhooks: () => SiteWebhookContext;
  /** Runs before each Deposit view is built (deposit AML keeps `amlStatus` in step). */
  beforeView?: (deposit: DepositRecord) => void;
  /** Who else receives payments on the chain (the orders). */
  otherPayments?: OtherPayments;
  /** Where each deposit and chain transaction created or changed is reported (a durable store's journal). */
  marks: RecordMarks;
  /** Where the deposits are kept (the engine's, store/deposit-store.ts), told how to read one. */
  store: (fields: DepositFields<DepositRecord>) => DepositStore<DepositRecord>;
}

export { BY_SITE, BY_STATIC_ADDRESS };

export class DepositService {
  readonly chain: SimulatedChain;
  /** The deposits, found by uuid, order id, destination, list page and due instant. */
  readonly records: DepositStore<DepositRecord>;
  /** The deposits' stream: their uuids, addresses, memos and the chain's hashes (a snapshot's load resumes it). */
  private random: Random;
  private data: ChainData;
  /**
   * The payment destinations handed out (the address, or `network memo` on memo networks) that no
   * deposit in the store receives at: a static address's, and one allocated for a deposit about
   * to be stored. With the store's, they keep destinations unique.
   */
  private readonly reserved = new Set<string>();
  /** The one address per memo network that every deposit on it shares (the memo tells them apart). */
  private readonly sharedAddresses = new Map<NetworkCode, string>();
  /** Chain transactions already credited → the deposit credited. */
  private readonly credited = new Map<string, DepositRecord>();
  private nextSeq = 0;
  private emitted: Promise<void> = Promise.resolve();
  /** Set by static-address-service.ts for this service (null until a static address is used). */
  staticPayments: StaticPaymentHooks | null = null;
  /** The views of listed deposits, serialised (listedView); changed() drops a deposit's. */
  private readonly listedViews = new SerializedViews<DepositRecord, Deposit>(listedViewsKept, (deposit) => this.viewNow(deposit));

  constructor(private readonly options: DepositServiceOptions) {
    this.random = options.random;
    this.data = createChainData(this.random);
    this.chain = new SimulatedChain(this.data, options.marks);
    this.records = options.store({
      uuid: (d) => d.uuid,
      siteId: (d) => d.site.id,
      orderId: (d) => d.orderId,
      staticAddressUuid: (d) => d.staticAddress?.uuid ?? null,
      network: (d) => d.network,
      address: (d) => d.address,
      memo: (d) => d.memo,
      createdAtMs: (d) => d.createdAtMs,
      status: (d) => d.status,
      seq: (d) => d.seq,
      dueAt: (d) => this.dueAt(d),
      expiringStatuses: depositMachine.states.filter((status) => transitionFor(status, 'expire') !== null),
    });
  }

  // -------------------------------------------------------------------------------------------
  // Deposits

  /** A new deposit, or the site's existing one for (orderId, asset) with created false. */
  create(site: Site, input: CreateDepositInput): { deposit: DepositRecord; created: boolean } {
    const existing = this.depositsOfOrder(site, input.orderId).find((d) => d.staticAddress === null && d.asset === input.asset.code);
    if (existing !== undefined) {
      this.settle(existing);
      return { deposit: existing, created: false };
    }
    const network = requireNetwork(input.asset.network);
    const { address, memo } = this.allocateAddress(network.code, 'dp');
    const deposit = this.newDeposit(this.options.clock.nowMs(), {
      site,
      orderId: input.orderId,
      asset: input.asset.code,
      network: network.code,
      address,
      memo,
      amount: input.amount,
      lifetimeSeconds: input.lifetimeSeconds,
      staticAddress: null,
    });
    return { deposit, created: true };
  }

  /** The site's deposit with this uuid, brought up to date; undefined for another site's. */
  get(site: Site, uuid: string): DepositRecord | undefined {
    const deposit = this.records.get(uuid);
    if (deposit === undefined || deposit.site.id !== site.id) return undefined;
    this.settle(deposit);
    return deposit;
  }

  /**
   * The site's most recently created deposit with this order id (any asset, static-address
   * payments included): the latest createdAt, and of deposits created at one instant (a frozen
   * clock) the one created last.
   */
  getByOrderId(site: Site, orderId: string): DepositRecord | undefined {
    let newest: DepositRecord | undefined;
    for (const deposit of this.depositsOfOrder(site, orderId)) {
      if (newest === undefined || deposit.createdAtMs > newest.createdAtMs || (deposit.createdAtMs === newest.createdAtMs && deposit.seq > newest.seq)) newest = deposit;
    }
    if (newest !== undefined) this.settle(newest);
    return newest;
  }

  /**
   * refreshDeposit: rate-limited per deposit; an expired deposit whose transaction is on the
   * chain now (never credited to a deposit) is revived by the machine's refresh transition.
   */
  refresh(deposit: DepositRecord): RefreshOutcome {
    const now = this.options.clock.nowMs();
    if (deposit.lastRefreshAtMs !== null) {
      const waitMs = deposit.lastRefreshAtMs + refreshIntervalSeconds * 1000 - now;
      if (waitMs > 0) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    deposit.lastRefreshAtMs = now;
    this.changed(deposit);
    this.settle(deposit);
    const found = this.uncreditedFor(deposit);
    const transition = transitionFor(deposit.status, 'refresh', { transaction_found: found !== undefined });
    if (transition !== null && found !== undefined) {
      this.credit(deposit, found, now);
      this.apply(deposit, transition, now);
      this.settle(deposit);
    }
    return { ok: true, deposit };
  }

  /** Applies every time-driven transition now due: only the deposits the store says are due. */
  tick(): void {
    const due = this.records.takeDue(this.options.clock.nowMs());
    for (const deposit of due) this.settle(deposit);
  }

  /** One page of a scope's deposits (BY_SITE, BY_STATIC_ADDRESS), newest first, by `request.filters.status`. */
  list<F extends ListFamily>(request: ListRequest<F>, partition: typeof BY_SITE | typeof BY_STATIC_ADDRESS, key: string | number): ListedPage<DepositRecord, F> {
    return this.records.list(request, { partition, key });
  }

  /** Resolves once every deposit.* event emitted so far is stored with its delivery. */
  flush(): Promise<void> {
    return this.emitted;
  }

  view(deposit: DepositRecord): Deposit {
    this.options.beforeView?.(deposit);
    return this.viewNow(deposit);
  }

  /**
   * The deposit's view for a list page: serialised once and reused while the deposit stays as it
   * is when nothing is credited to it (its view then depends on the record alone); a credited
   * transaction's confirmations move with the clock, so that view is built anew each time.
   */
  listedView(deposit: DepositRecord): SerializedJson<Deposit> | Deposit {
    this.options.beforeView?.(deposit);
    return deposit.transactionHashes.length > 0 ? this.viewNow(deposit) : this.listedViews.get(deposit);
  }

  /** The deposit's view as of the clock's now (what the API shows of it). */
  private viewNow(deposit: DepositRecord): Deposit {
    return depositView(deposit, this.chain, this.options.clock.now());
  }

  // -------------------------------------------------------------------------------------------
  // Snapshots (mock-server/snapshot/deposits-state.ts)

  /** The deposits in creation order, the chain's transactions and the stream's position. */
  /** `withRecords` false: the deposits and transactions left out (a journal's header). */
  exportState(withRecords = true): { deposits: SandboxStateDeposit[]; transactions: SandboxStateChainTransaction[]; random: number } {
    return {
      deposits: withRecords ? [...this.records.values()].map(depositState) : [],
      transactions: withRecords ? this.chain.exportState() : [],
      random: this.random.state(),
    };
  }

  /** One deposit as exportState lists it; undefined when there is none. */
  exportRecord(uuid: string): SandboxStateDeposit | undefined {
    const deposit = this.records.get(uuid);
    return deposit === undefined ? undefined : depositState(deposit);
  }

  /**
   * Puts a snapshot's chain transactions and deposits (at `pointer`) into this freshly built
   * service, whose static addresses are restored already (their destinations reserved), rebuilds
   * every index and the due queue from them and resumes the stream at `randomAt`; throws
   * StateRejected. Nothing is settled here: the clock is the snapshot's only once the load is done,
   * and due transitions then happen at the instant they fell due, as without the round trip.
   */
  restoreState(
    state: { deposits: readonly SandboxStateDeposit[]; transactions: readonly SandboxStateChainTransaction[]; randomAt: number },
    references: DepositReferences,
    pointer: string,
  ): void {
    this.random = createRandom(this.random.seed, state.randomAt);
    this.data = createChainData(this.random);
    this.chain.restoreState(state.transactions, this.data, `${pointer}/transactions`);
    this.restoreRecords(state.deposits, references, pointer);
  }

  /**
   * As restoreState, but the deposits are the store's (a restart on an engine that reads them
   * when asked for, store/deposit-store.ts LazyDepositStore): only those with a transaction
   * credited are read now. The store's records were written by this service: they are not
   * checked again, each is read as `references` say when it is first asked for.
   */
  resumeState(state: { transactions: readonly SandboxStateChainTransaction[]; randomAt: number }, references: DepositReferences, pointer: string): void {
    const store = this.records as Partial<LazyDepositStore<DepositRecord>>;
    if (store.resume === undefined || store.withMemo === undefined) throw new Error('the deposit store keeps no deposits of its own to resume');
    this.random = createRandom(this.random.seed, state.randomAt);
    this.data = createChainData(this.random);
    this.chain.restoreState(state.transactions, this.data, `${pointer}/transactions`);
    const { credited, nextSeq } = store.resume((doc, seq) => depositOf(JSON.parse(doc) as SandboxStateDeposit, seq, references, `${pointer}/deposits/${seq}`));
    for (const deposit of credited) this.restoreCredits(deposit, `${pointer}/deposits/${deposit.seq}`);
    this.nextSeq = nextSeq;
    // A memo network's deposits share one address: the one its stored deposits have.
    for (const network of networks) {
      if (network.memoName === null || this.sharedAddresses.has(network.code)) continue;
      const deposit = store.withMemo(assets.filter((asset) => asset.network === network.code).map((asset) => asset.code));
      if (deposit !== undefined) this.sharedAddresses.set(network.code, deposit.address);
    }
  }

  /** Credits the restored deposit's transactions to it; throws StateRejected for a hash not on the chain or credited twice. */
  private restoreCredits(deposit: DepositRecord, pointer: string): void {
    deposit.transactionHashes.forEach((hash, position) => {
      const hashAt = `${pointer}/transactionHashes/${position}`;
      if (!this.chain.has(hash)) throw new StateRejected(hashAt, 'no chain transaction has this hash');
      if (this.credited.has(hash)) throw new StateRejected(hashAt, 'the transaction is credited to another deposit');
      this.credited.set(hash, deposit);
    });
  }

  private restoreRecords(deposits: readonly SandboxStateDeposit[], references: DepositReferences, pointer: string): void {
    // Collected first, then handed to the store, which indexes them at once: one sort per index.
    const restored = new OrderedShardedMap<string, DepositRecord>();
    const destinations = new Set<string>();
    deposits.forEach((record, index) => {
      const at = `${pointer}/deposits/${index}`;
      if (restored.has(record.uuid)) throw new StateRejected(`${at}/uuid`, 'another deposit has this uuid');
      const deposit = depositOf(record, index, references, at);
      this.restoreCredits(deposit, at);
      // A static address's payments receive at its destination, reserved with it.
      if (deposit.staticAddress === null) {
        const key = this.restoreDestination(deposit.network, deposit.address, deposit.memo, at, destinations);
        destinations.add(key);
      }
      restored.set(deposit.uuid, deposit);
    });
    this.records.load(restored);
    this.nextSeq = deposits.length;
  }

  /**
   * Checks the destination a restored record receives at, as allocateAddress and create did, and
   * returns its key; throws StateRejected (naming fields under `pointer`) when another record
   * receives there (a reservation, or one of `taken`), when the memo does not fit the network, or
   * when the records of a memo network do not share its one address.
   */
  private restoreDestination(network: NetworkCode, address: string, memo: string | null, pointer: string, taken: ReadonlySet<string>): string {
    const memoNetwork = requireNetwork(network).memoName !== null;
    if (memoNetwork !== (memo !== null)) throw new StateRejected(`${pointer}/memo`, memoNetwork ? `a ${network} destination needs a memo` : `a ${network} destination has no memo`);
    if (memoNetwork) {
      const shared = this.sharedAddresses.get(network) ?? address;
      if (address !== shared) throw new StateRejected(`${pointer}/address`, `the ${network} destinations share the address ${shared}`);
      this.sharedAddresses.set(network, shared);
    }
    const key = destinationKey(network, address, memo);
    if (this.reserved.has(key) || taken.has(key)) throw new StateRejected(`${pointer}/address`, 'another deposit or static address receives here');
    return key;
  }

  /** Reserves a restored static address's destination (static-address-service.ts); throws StateRejected as restoreDestination. */
  restoreReservation(network: NetworkCode, address: string, memo: string | null, pointer: string): void {
    this.reserved.add(this.restoreDestination(network, address, memo, pointer, this.reserved));
  }

  // -------------------------------------------------------------------------------------------
  // The chain watcher

  /**
   * A transaction arrives on the simulated chain; the watcher credits it to the deposit with its
   * address (and memo, on memo networks: a payment without it is not matched), or offers it to
   * the other payments (an order's pay-in address). Returns the deposit, or null when none takes it.
   */
  receive(input: InjectInput): { transaction: ChainTransaction; deposit: DepositRecord | null } {
    const now = this.options.clock.now();
    const tx = this.chain.inject(input, now);
    const claim = this.staticPayments?.claim(tx) ?? null;
    const deposit = claim !== null ? this.createStaticPayment(claim, tx, now.getTime()) : this.depositFor(tx);
    if (deposit === undefined) {
      this.options.otherPayments?.claim(tx);
      return { transaction: tx, deposit: null };
    }
    this.settle(deposit);
    const matched = this.detect(deposit, tx, now.getTime());
    this.settle(deposit);
    return { transaction: tx, deposit: matched ? deposit : null };
  }

  /** The control API added confirmations to a transaction: its deposit may now be confirmed. */
  confirm(tx: ChainTransaction, count: number): DepositRecord | null {
    this.chain.addConfirmations(tx, count, this.options.clock.now());
    const deposit = this.credited.get(tx.hash);
    if (deposit === undefined) {
      this.options.otherPayments?.confirmationsAdded(tx);
      return null;
    }
    this.records.schedule(deposit);
    this.settle(deposit);
    return deposit;
  }

  /** The deposit whose hash credited `hash`, if any. */
  depositOf(hash: string): DepositRecord | null {
    return this.credited.get(hash) ?? null;
  }

  private detect(deposit: DepositRecord, tx: ChainTransaction, now: number): boolean {
    if (deposit.status === 'confirming') {
      // No transition: a second payment while one confirms adds to the amount received.
      this.credit(deposit, tx, now);
      deposit.updatedAtMs = now;
      this.changed(deposit);
      return true;
    }
    const withinLateWindow = deposit.expiredAtMs !== null && now - deposit.expiredAtMs < (lateWindowSeconds ?? 0) * 1000;
    const transition =
      transitionFor(deposit.status, 'transaction_detected') ??
      transitionFor(deposit.status, 'late_transaction_detected', { within_late_window: withinLateWindow });
    if (transition === null) return false;
    this.credit(deposit, tx, now);
    this.apply(deposit, transition, now);
    return true;
  }

  /** The invoice deposit paid at the transaction's destination (a static address's payments are never matched again). */
  private depositFor(tx: ChainTransaction): DepositRecord | undefined {
    const memo = requireNetwork(tx.network).memoName !== null ? tx.memo : null;
    const deposit = this.records.atDestination(tx.network, tx.address, memo);
    return deposit !== undefined && deposit.network === tx.network && deposit.address === tx.address ? deposit : undefined;
  }

  private uncreditedFor(deposit: DepositRecord): ChainTransaction | undefined {
    const memoNetwork = requireNetwork(deposit.network).memoName !== null;
    return this.chain
      .toAddress(deposit.network, deposit.address)
      .find((tx) => !this.credited.has(tx.hash) && (!memoNetwork || tx.memo === deposit.memo));
  }

  private credit(deposit: DepositRecord, tx: ChainTransaction, now: number): void {
    this.credited.set(tx.hash, deposit);
    deposit.transactionHashes = [...deposit.transactionHashes, tx.hash];
    deposit.seenAtMs = [...deposit.seenAtMs, now];
    // A new transaction moves the instant a confirming deposit is confirmed.
    this.records.schedule(deposit);
    this.changed(deposit);
  }

  /** A fresh payment address (shared address plus a fresh memo on memo networks), unique among all. */
  allocateAddress(network: NetworkCode, memoPrefix: string): { address: string; memo: string | null } {
    if (requireNetwork(network).memoName !== null) {
      // The shared address first, then the memo: the order of seeded draws deposits always had.
      const address = this.sharedAddress(network);
      let memo: string | null;
      do memo = this.data.memo(network, memoPrefix);
      while (memo !== null && this.taken(network, address, memo));
      this.reserved.add(destinationKey(network, address, memo));
      return { address, memo: memo === null ? null : flatString(memo) };
    }
    let address: string;
    do address = flatString(this.data.address(network, 'deposit'));
    while (this.taken(network, address, null));
    this.reserved.add(address);
    return { address, memo: null };
  }

  /** Whether a deposit or a reservation receives at the destination. */
  private taken(network: NetworkCode, address: string, memo: string | null): boolean {
    return this.reserved.has(destinationKey(network, address, memo)) || this.records.atDestination(network, address, memo) !== undefined;
  }

  /** A static address's payment: its own deposit for any amount, detected from now on. */
  private createStaticPayment(claim: StaticPaymentClaim, tx: ChainTransaction, now: number): DepositRecord {
    return this.newDeposit(now, {
      site: claim.site,
      orderId: claim.orderId,
      asset: claim.asset,
      network: tx.network,
      address: tx.address,
      memo: tx.memo,
      amount: null,
      lifetimeSeconds: defaultLifetimeSeconds,
      staticAddress: claim.staticAddress,
    });
  }

  /** A new deposit in the machine's initial state, created at `now` and expiring after its lifetime; stored and scheduled. */
  private newDeposit(
    now: number,
    fields: Pick<DepositRecord, 'site' | 'orderId' | 'asset' | 'network' | 'address' | 'memo' | 'amount' | 'staticAddress'> & { lifetimeSeconds: number },
  ): DepositRecord {
    // Every field in one literal, in one order: all deposits share one hidden class.
    const deposit: DepositRecord = {
      seq: this.nextSeq++,
      uuid: randomUuid(this.random),
      site: fields.site,
      orderId: fields.orderId,
      asset: fields.asset,
      network: fields.network,
      address: fields.address,
      memo: fields.memo,
      amount: fields.amount,
      status: depositMachine.initial,
      amlStatus: 'not_checked',
      transactionHashes: noneCredited,
      seenAtMs: noneCredited,
      expiresAtMs: now + fields.lifetimeSeconds * 1000,
      expiredAtMs: null,
      confirmedAtMs: null,
      createdAtMs: now,
      updatedAtMs: now,
      paidAtMs: null,
      lastRefreshAtMs: null,
      staticAddress: fields.staticAddress,
    };
    // An invoice deposit's destination is the store's to find from now on.
    if (deposit.staticAddress === null) this.reserved.delete(destinationKey(deposit.network, deposit.address, deposit.memo));
    this.records.insert(deposit);
    this.changed(deposit);
    return deposit;
  }

  private depositsOfOrder(site: Site, orderId: string): readonly DepositRecord[] {
    return this.records.ofOrder(site.id, orderId);
  }

  private sharedAddress(network: NetworkCode): string {
    let address = this.sharedAddresses.get(network);
    if (address === undefined) {
      address = flatString(this.data.address(network, 'deposit'));
      this.sharedAddresses.set(network, address);
    }
    return address;
  }

  // -------------------------------------------------------------------------------------------
  // The machine

  /**
   * The instant the deposit's next time-driven transition falls due (the queue's order): the
   * last of its transactions reaching its confirmations while confirming, the end of the
   * lifetime where the machine has an expire transition; null when none is pending.
   */
  private dueAt(deposit: DepositRecord): number | null {
    if (deposit.status === 'confirming') {
      if (deposit.transactionHashes.length === 0) return null;
      return Math.max(...deposit.transactionHashes.map((hash) => this.chain.confirmedAtMs(this.chain.require(hash))));
    }
    return transitionFor(deposit.status, 'expire') === null ? null : deposit.expiresAtMs;
  }

  /** Applies the time-driven transitions due by now, each at the instant it fell due. */
  private settle(deposit: DepositRecord): void {
    const now = this.options.clock.nowMs();
    for (let step = 0; step < 16; step += 1) {
      const dueMs = this.dueAt(deposit);
      if (dueMs === null || dueMs > now) return;
      const due = this.dueTransition(deposit, dueMs);
      this.apply(deposit, due.transition, due.atMs);
    }
    throw new Error(`deposit ${deposit.uuid} did not settle`);
  }

  /** The transition that fell due at `dueMs`, and the instant it takes effect (never before the last change). */
  private dueTransition(deposit: DepositRecord, dueMs: number): { transition: DepositTransition; atMs: number } {
    const atMs = Math.max(dueMs, deposit.updatedAtMs);
    if (deposit.status === 'confirming') {
      const received = receivedAmount(deposit, this.chain);
      const order = deposit.amount === null ? 0 : compareAmounts(received, deposit.amount);
      const transition = transitionFor(deposit.status, 'confirmed', {
        amount_matches: deposit.amount === null || order === 0,
        amount_exceeds: deposit.amount !== null && order > 0,
        amount_short: deposit.amount !== null && order < 0,
      });
      if (transition === null) throw new Error(`no confirmed transition holds for deposit ${deposit.uuid}`);
      deposit.confirmedAtMs = atMs;
      return { transition, atMs };
    }
    return { transition: transitionFor(deposit.status, 'expire')!, atMs };
  }

  private apply(deposit: DepositRecord, transition: DepositTransition, atMs: number): void {
    deposit.status = transition.to;
    deposit.updatedAtMs = atMs;
    if (transition.to === 'expired') deposit.expiredAtMs = atMs;
    if (depositMachine.terminal.includes(transition.to)) deposit.paidAtMs = atMs;
    this.records.schedule(deposit);
    this.changed(deposit);
    if (transition.emits !== null) this.emit(deposit, transition.emits);
    if (deposit.staticAddress !== null && depositMachine.terminal.includes(transition.to)) this.staticPayments?.final(deposit, atMs);
  }

  /** Reports a deposit created or changed (its fields are read when the journal is next written); deposit-aml.ts calls it too. */
  changed(deposit: DepositRecord): void {
    this.listedViews.drop(deposit);
    this.records.changed(deposit);
    this.options.marks.changed('deposit', deposit.uuid);
  }

  /** Queues the event with the deposit as it is now; events leave in the order they happened. */
  emit(deposit: DepositRecord, type: string, extra: Record<string, unknown> = {}): void {
    const body = { deposit: this.view(deposit), ...extra };
    const site = deposit.site;
    this.emitted = this.emitted
      .then(() => emitSiteEvent(this.options.webhooks(), site, { type, data: body, resource: { type: 'deposit', id: deposit.uuid } }))
      .then(
        () => undefined,
        (error: unknown) => {
          reportStoreFailure(`deposit ${deposit.uuid}: ${type} was not emitted`, error);
        },
      );
  }
}

