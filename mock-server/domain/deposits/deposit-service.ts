// The v1 deposits of one sandbox: creation (idempotent by site, order_id and asset), lookups,
// the history list, refresh, and the deposit machine EXECUTED from the generated table
// (generated/machines.ts, from contracts/machines/deposit.yaml): this file only decides which
// event happens and which guards hold; the table decides the target state and the deposit.*
// event it emits. Time-driven events (confirmations accruing, the lifetime ending) are applied
// at the instant they fall due, whenever the deposit is next looked at: on a clock advance, on a
// read, or when a transaction arrives.
import { operationExtension } from '../../bundled-contracts.js';
import { depositMachine, type DepositEvent, type DepositState, type Transition } from '../../../generated/machines.js';
import type { Clock } from '../../clock.js';
import { createRandom, type Random } from '../../random.js';
import type { Sandbox } from '../../sandbox.js';
import { ListableCollection } from '../../store/list-records.js';
import type { Site } from '../accounts/sites.js';
import { randomUuid } from '../webhooks/ids.js';
import { emitSiteEvent, type SiteWebhookContext } from '../webhooks/site-endpoint.js';
import type { AssetDefinition } from './assets.js';
import { createChainData, type ChainData } from './chain-data.js';
import { SimulatedChain, type ChainTransaction, type InjectInput } from './chain-simulator.js';
import { syncDepositAml } from './deposit-aml.js';
import { compareDecimals, depositView, receivedAmount, type DepositRecord } from './deposit-records.js';
import { requireNetwork, type NetworkCode } from './networks.js';

// Timer and guard names of the machine file; checked against the generated table at load.
const LIFETIME = 'lifetime';
const LATE_WINDOW = 'late_window';
const GUARDS = ['amount_matches', 'amount_exceeds', 'amount_short', 'within_late_window', 'transaction_found'] as const;
type GuardName = (typeof GUARDS)[number];

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
  final(deposit: DepositRecord, at: Date): void;
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
}

export class DepositService {
  readonly chain: SimulatedChain;
  readonly collection = new ListableCollection<DepositRecord>({
    id: (d) => d.uuid,
    fields: { createdAt: (d) => d.createdAt.getTime() },
  });
  private readonly data: ChainData;
  private readonly byOrder = new Map<string, DepositRecord>();
  private readonly addresses = new Set<string>();
  private readonly memos = new Set<string>();
  /** The one address per memo network that every deposit on it shares (the memo tells them apart). */
  private readonly sharedAddresses = new Map<NetworkCode, string>();
  /** Chain transactions already credited to a deposit. */
  private readonly credited = new Set<string>();
  private emitted: Promise<void> = Promise.resolve();
  /** Set by static-address-service.ts for this service (null until a static address is used). */
  staticPayments: StaticPaymentHooks | null = null;

  constructor(private readonly options: DepositServiceOptions) {
    this.data = createChainData(options.random);
    this.chain = new SimulatedChain(this.data);
  }

  // -------------------------------------------------------------------------------------------
  // Deposits

  /** A new deposit, or the site's existing one for (orderId, asset) with created false. */
  create(site: Site, input: CreateDepositInput): { deposit: DepositRecord; created: boolean } {
    const key = orderKey(site, input.orderId, input.asset.code);
    const existing = this.byOrder.get(key);
    if (existing !== undefined) {
      this.settle(existing);
      return { deposit: existing, created: false };
    }
    const network = requireNetwork(input.asset.network);
    const { address, memo } = this.allocateAddress(network.code, 'dp');
    const deposit = this.newDeposit(this.options.clock.now(), {
      site,
      orderId: input.orderId,
      asset: input.asset.code,
      network: network.code,
      address,
      memo,
      amount: input.amount,
      lifetimeSeconds: input.lifetimeSeconds,
      staticAddress: undefined,
    });
    this.byOrder.set(key, deposit);
    this.collection.upsert(deposit);
    return { deposit, created: true };
  }

  /** The site's deposit with this uuid, brought up to date; undefined for another site's. */
  get(site: Site, uuid: string): DepositRecord | undefined {
    const deposit = this.collection.get(uuid);
    if (deposit === undefined || deposit.site.id !== site.id) return undefined;
    this.settle(deposit);
    return deposit;
  }

  /** The site's newest deposit with this order id (any asset). */
  getByOrderId(site: Site, orderId: string): DepositRecord | undefined {
    let newest: DepositRecord | undefined;
    for (const deposit of this.collection.values()) {
      if (deposit.site.id !== site.id || deposit.orderId !== orderId) continue;
      if (newest === undefined || deposit.createdAt.getTime() > newest.createdAt.getTime() || (deposit.createdAt.getTime() === newest.createdAt.getTime() && deposit.uuid > newest.uuid)) newest = deposit;
    }
    if (newest !== undefined) this.settle(newest);
    return newest;
  }

  /** Brings every deposit of the site up to date (before a list). */
  settleSite(site: Site): void {
    for (const deposit of this.collection.values()) if (deposit.site.id === site.id) this.settle(deposit);
  }

  /**
   * refreshDeposit: rate-limited per deposit; an expired deposit whose transaction is on the
   * chain now (never credited to a deposit) is revived by the machine's refresh transition.
   */
  refresh(deposit: DepositRecord): RefreshOutcome {
    const now = this.options.clock.now();
    if (deposit.lastRefreshAt !== null) {
      const waitMs = deposit.lastRefreshAt.getTime() + refreshIntervalSeconds * 1000 - now.getTime();
      if (waitMs > 0) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    deposit.lastRefreshAt = now;
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

  /** Applies every time-driven transition now due, on every unfinished deposit. */
  tick(): void {
    for (const deposit of this.collection.values()) this.settle(deposit);
  }

  /** Resolves once every deposit.* event emitted so far is stored with its delivery. */
  flush(): Promise<void> {
    return this.emitted;
  }

  view(deposit: DepositRecord) {
    this.options.beforeView?.(deposit);
    return depositView(deposit, this.chain, this.options.clock.now());
  }

  // -------------------------------------------------------------------------------------------
  // The chain watcher

  /**
   * A transaction arrives on the simulated chain; the watcher credits it to the deposit with its
   * address (and memo, on memo networks: a payment without it is not matched). Returns that
   * deposit, or null when none takes it.
   */
  receive(input: InjectInput): { transaction: ChainTransaction; deposit: DepositRecord | null } {
    const now = this.options.clock.now();
    const tx = this.chain.inject(input, now);
    const claim = this.staticPayments?.claim(tx) ?? null;
    const deposit = claim !== null ? this.createStaticPayment(claim, tx, now) : this.depositFor(tx);
    if (deposit === undefined) return { transaction: tx, deposit: null };
    this.settle(deposit);
    const matched = this.detect(deposit, tx, now);
    this.settle(deposit);
    return { transaction: tx, deposit: matched ? deposit : null };
  }

  /** The control API added confirmations to a transaction: its deposit may now be confirmed. */
  confirm(tx: ChainTransaction, count: number): DepositRecord | null {
    const now = this.options.clock.now();
    this.chain.addConfirmations(tx, count, now);
    const deposit = [...this.collection.values()].find((d) => d.transactionHashes.includes(tx.hash));
    if (deposit === undefined) return null;
    this.settle(deposit);
    return deposit;
  }

  /** The deposit whose hash credited `hash`, if any. */
  depositOf(hash: string): DepositRecord | null {
    return [...this.collection.values()].find((d) => d.transactionHashes.includes(hash)) ?? null;
  }

  private detect(deposit: DepositRecord, tx: ChainTransaction, now: Date): boolean {
    if (deposit.status === 'confirming') {
      // No transition: a second payment while one confirms adds to the amount received.
      this.credit(deposit, tx, now);
      deposit.updatedAt = now;
      return true;
    }
    const withinLateWindow = deposit.expiredAt !== null && now.getTime() - deposit.expiredAt.getTime() < (lateWindowSeconds ?? 0) * 1000;
    const transition =
      transitionFor(deposit.status, 'transaction_detected') ??
      transitionFor(deposit.status, 'late_transaction_detected', { within_late_window: withinLateWindow });
    if (transition === null) return false;
    this.credit(deposit, tx, now);
    this.apply(deposit, transition, now);
    return true;
  }

  private depositFor(tx: ChainTransaction): DepositRecord | undefined {
    const network = requireNetwork(tx.network);
    let found: DepositRecord | undefined;
    for (const deposit of this.collection.values()) {
      if (deposit.staticAddress != null) continue; // a static address's payments are never matched again
      if (deposit.network !== tx.network || deposit.address !== tx.address) continue;
      if (network.memoName !== null && deposit.memo !== tx.memo) continue;
      if (found === undefined || deposit.createdAt.getTime() >= found.createdAt.getTime()) found = deposit;
    }
    return found;
  }

  private uncreditedFor(deposit: DepositRecord): ChainTransaction | undefined {
    const memoNetwork = requireNetwork(deposit.network).memoName !== null;
    return this.chain
      .toAddress(deposit.network, deposit.address)
      .find((tx) => !this.credited.has(tx.hash) && (!memoNetwork || tx.memo === deposit.memo));
  }

  private credit(deposit: DepositRecord, tx: ChainTransaction, now: Date): void {
    this.credited.add(tx.hash);
    deposit.transactionHashes.push(tx.hash);
    deposit.seenAt.set(tx.hash, now);
  }

  /** A fresh payment address (shared address plus a fresh memo on memo networks), unique among all. */
  allocateAddress(network: NetworkCode, memoPrefix: string): { address: string; memo: string | null } {
    if (requireNetwork(network).memoName !== null) {
      // The shared address first, then the memo: the order of seeded draws deposits always had.
      const address = this.sharedAddress(network);
      let memo: string | null;
      do memo = this.data.memo(network, memoPrefix);
      while (memo !== null && this.memos.has(`${network} ${memo}`));
      this.memos.add(`${network} ${memo}`);
      return { address, memo };
    }
    let address: string;
    do address = this.data.address(network, 'deposit');
    while (this.addresses.has(address));
    this.addresses.add(address);
    return { address, memo: null };
  }

  /** A static address's payment: its own deposit for any amount, detected from now on. */
  private createStaticPayment(claim: StaticPaymentClaim, tx: ChainTransaction, now: Date): DepositRecord {
    const deposit = this.newDeposit(now, {
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
    this.collection.upsert(deposit);
    return deposit;
  }

  /** A new deposit in the machine's initial state, created at `now` and expiring after its lifetime. */
  private newDeposit(
    now: Date,
    fields: Pick<DepositRecord, 'site' | 'orderId' | 'asset' | 'network' | 'address' | 'memo' | 'amount' | 'staticAddress'> & { lifetimeSeconds: number },
  ): DepositRecord {
    const { lifetimeSeconds, staticAddress, ...identity } = fields;
    return {
      uuid: randomUuid(this.options.random),
      ...identity,
      status: depositMachine.initial,
      amlStatus: 'not_checked',
      transactionHashes: [],
      seenAt: new Map(),
      expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000),
      expiredAt: null,
      confirmedAt: null,
      createdAt: now,
      updatedAt: now,
      paidAt: null,
      lastRefreshAt: null,
      // Only deposits made from a static address carry the field.
      ...(staticAddress !== undefined ? { staticAddress } : {}),
    };
  }

  private sharedAddress(network: NetworkCode): string {
    let address = this.sharedAddresses.get(network);
    if (address === undefined) {
      address = this.data.address(network, 'deposit');
      this.sharedAddresses.set(network, address);
    }
    return address;
  }

  // -------------------------------------------------------------------------------------------
  // The machine

  /** Applies the time-driven transitions due by now, each at the instant it fell due. */
  private settle(deposit: DepositRecord): void {
    const now = this.options.clock.now();
    for (let step = 0; step < 16; step += 1) {
      const due = this.nextDue(deposit, now);
      if (due === null) return;
      this.apply(deposit, due.transition, due.at);
    }
    throw new Error(`deposit ${deposit.uuid} did not settle`);
  }

  private nextDue(deposit: DepositRecord, now: Date): { transition: DepositTransition; at: Date } | null {
    if (deposit.status === 'confirming') {
      const txs = deposit.transactionHashes.map((hash) => this.chain.require(hash));
      const times = txs.map((tx) => this.chain.confirmedAt(tx, now));
      if (times.length === 0 || times.some((t) => t === null)) return null;
      const at = new Date(Math.max(deposit.updatedAt.getTime(), ...times.map((t) => t!.getTime())));
      const received = receivedAmount(deposit, this.chain);
      const order = deposit.amount === null ? 0 : compareDecimals(received, deposit.amount);
      const transition = transitionFor(deposit.status, 'confirmed', {
        amount_matches: deposit.amount === null || order === 0,
        amount_exceeds: deposit.amount !== null && order > 0,
        amount_short: deposit.amount !== null && order < 0,
      });
      if (transition === null) throw new Error(`no confirmed transition holds for deposit ${deposit.uuid}`);
      deposit.confirmedAt = at;
      return { transition, at };
    }
    if (now.getTime() < deposit.expiresAt.getTime()) return null;
    const transition = transitionFor(deposit.status, 'expire');
    if (transition === null) return null;
    return { transition, at: new Date(Math.max(deposit.expiresAt.getTime(), deposit.updatedAt.getTime())) };
  }

  private apply(deposit: DepositRecord, transition: DepositTransition, at: Date): void {
    deposit.status = transition.to;
    deposit.updatedAt = at;
    if (transition.to === 'expired') deposit.expiredAt = at;
    if (depositMachine.terminal.includes(transition.to)) deposit.paidAt = at;
    if (transition.emits !== null) this.emit(deposit, transition.emits);
    if (deposit.staticAddress != null && depositMachine.terminal.includes(transition.to)) this.staticPayments?.final(deposit, at);
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
          console.error(`deposit ${deposit.uuid}: ${type} was not emitted`, error);
        },
      );
  }
}

function orderKey(site: Site, orderId: string, asset: string): string {
  return JSON.stringify([site.id, orderId, asset]);
}

// ---------------------------------------------------------------------------------------------
// One service per sandbox, replaced on reset (a reset gives the sandbox a new webhook engine).

const services = new WeakMap<Sandbox, { generation: object; service: DepositService }>();

/** Mixed into the sandbox seed so the deposit stream is independent of every other id. */
const seedSalt = 0x0de9051;

export function depositService(sandbox: Sandbox): DepositService {
  const current = services.get(sandbox);
  if (current !== undefined && current.generation === sandbox.webhooks) return current.service;
  if (current === undefined) {
    // Time-driven transitions run as the clock advances (their events then wait for run-due).
    sandbox.clock.onAdvance(async () => {
      const service = depositService(sandbox);
      service.tick();
      await service.flush();
    });
  }
  const service = new DepositService({
    clock: sandbox.clock,
    random: createRandom((sandbox.seedInUse ^ seedSalt) >>> 0),
    webhooks: () => ({ store: sandbox.webhooks.store, service: sandbox.webhooks.service, clock: sandbox.clock, random: sandbox.random }),
    beforeView: (deposit) => syncDepositAml(sandbox, deposit, service.chain),
  });
  services.set(sandbox, { generation: sandbox.webhooks, service });
  return service;
}
