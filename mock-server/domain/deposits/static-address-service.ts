// v1 static addresses of one sandbox: a reusable address per (site, orderId), idempotent by
// orderId, disabled and enabled by the operator (the static-address machine); on memo networks
// all static addresses share the network's one address and each gets a permanent memo. Every transaction to one (address, plus its memo on memo networks) becomes its
// own deposit (DepositService.createStaticPayment, amount null = any amount) carrying
// `staticAddress`; once that deposit is final it is swept to the network's hot wallet at once
// (deposit.swept, sweptAt = the instant it became final).
import type { StaticAddress, StaticAddressRef } from '../../../generated/deposit-v1/types.js';
import { staticAddressMachine, type StaticAddressEvent, type StaticAddressState } from '../../../generated/machines.js';
import type { SandboxStateDeposit, SandboxStateStaticAddress, SandboxStateStaticAddressHotWallet } from '../../../generated/sandbox-control/types.js';
import type { Clock } from '../../clock.js';
import { createRandom, type Random } from '../../random.js';
import { ListableCollection } from '../../store/list-records.js';
import { key } from '../../store/sort-keys.js';
import type { Site } from '../accounts/sites.js';
import { tryFire, type FireResult } from '../machines/fire.js';
import { requireOneOf, StateRejected, type StateReferences } from '../state-rejected.js';
import { randomUuid } from '../webhooks/ids.js';
import type { AssetDefinition } from './assets.js';
import { createChainData, type ChainData } from './chain-data.js';
import type { ChainTransaction } from './chain-simulator.js';
import type { DepositRecord } from './deposit-records.js';
import { restoredAsset } from './deposit-state.js';
import { BY_SITE, type DepositService } from './deposit-service.js';
import { networkCodes, requireNetwork, type NetworkCode } from './networks.js';
import type { RecordMarks } from '../record-marks.js';

export interface StaticAddressRecord {
  uuid: string;
  site: Site;
  orderId: string;
  asset: string;
  network: NetworkCode;
  address: string;
  memo: string | null;
  status: StaticAddressState;
  paymentsCount: number;
  createdAt: Date;
}

export type CreateStaticOutcome = { ok: true; address: StaticAddressRecord; created: boolean } | { ok: false; existing: StaticAddressRecord };

export class StaticAddressService {
  /** Newest first (createdAt, then uuid, descending) per site: listStaticAddresses' order. */
  readonly collection = new ListableCollection<StaticAddressRecord>({
    id: key.string((a) => a.uuid),
    fields: { createdAt: key.number((a) => a.createdAt.getTime()) },
    fixedFields: ['createdAt'],
    defaultSort: [{ field: 'createdAt', direction: 'desc' }],
    partitions: { [BY_SITE]: (a) => a.site.id },
  });
  private readonly byOrder = new Map<string, StaticAddressRecord>();
  /** (network, address, memo) → the static address that receives there. */
  private readonly byDestination = new Map<string, StaticAddressRecord>();
  private readonly hotWallets = new Map<NetworkCode, string>();
  private data: ChainData;

  constructor(
    private readonly clock: Clock,
    /** The static-address ids and sweep data: a stream of their own (a snapshot's load resumes it). */
    private random: Random,
    readonly deposits: DepositService,
    private readonly marks: RecordMarks,
  ) {
    this.data = createChainData(random);
    deposits.staticPayments = {
      claim: (tx) => this.claim(tx),
      final: (deposit, atMs) => this.sweep(deposit, atMs),
    };
  }

  /** A new static address, the same one for a repeat of (site, orderId, asset), or the conflicting one. */
  create(site: Site, orderId: string, asset: AssetDefinition): CreateStaticOutcome {
    const key = JSON.stringify([site.id, orderId]);
    const existing = this.byOrder.get(key);
    if (existing !== undefined) return existing.asset === asset.code ? { ok: true, address: existing, created: false } : { ok: false, existing };
    const network = requireNetwork(asset.network);
    const { address, memo } = this.deposits.allocateAddress(network.code, 'sa');
    const record: StaticAddressRecord = {
      uuid: randomUuid(this.random),
      site,
      orderId,
      asset: asset.code,
      network: network.code,
      address,
      memo,
      status: staticAddressMachine.initial,
      paymentsCount: 0,
      createdAt: this.clock.now(),
    };
    this.byOrder.set(key, record);
    this.byDestination.set(destinationKey(network.code, address, memo), record);
    this.collection.upsert(record);
    this.marks.changed('staticAddress', record.uuid);
    return { ok: true, address: record, created: true };
  }

  /** Any site's static address (the control API, as the inspector shows them). */
  findAny(uuid: string): StaticAddressRecord | undefined {
    return this.collection.get(uuid);
  }

  /**
   * The operator disables or enables the address (contracts/machines/static-address.yaml); the
   * machine's reason when it refuses. A disabled address's transactions create no deposits.
   */
  fire(record: StaticAddressRecord, event: StaticAddressEvent): FireResult<StaticAddressState, StaticAddressEvent> {
    const fired = tryFire(staticAddressMachine, record.status, event);
    if (fired.ok) {
      record.status = fired.transition.to;
      this.marks.changed('staticAddress', record.uuid);
    }
    return fired;
  }

  get(site: Site, uuid: string): StaticAddressRecord | undefined {
    const record = this.collection.get(uuid);
    return record === undefined || record.site.id !== site.id ? undefined : record;
  }

  getByOrderId(site: Site, orderId: string): StaticAddressRecord | undefined {
    return this.byOrder.get(JSON.stringify([site.id, orderId]));
  }

  view(record: StaticAddressRecord): StaticAddress {
    return {
      uuid: record.uuid,
      orderId: record.orderId,
      asset: record.asset,
      network: record.network,
      address: record.address,
      memo: record.memo,
      status: record.status,
      paymentsCount: record.paymentsCount,
      createdAt: record.createdAt.toISOString(),
    };
  }

  /** The addresses in creation order, the hot wallets drawn so far and the stream's position (snapshots). */
  /** `withRecords` false: the addresses left out (a journal's header). */
  exportState(withRecords = true): { addresses: SandboxStateStaticAddress[]; hotWallets: SandboxStateStaticAddressHotWallet[]; random: number } {
    return {
      addresses: withRecords ? [...this.collection.values()].map(staticAddressState) : [],
      hotWallets: [...this.hotWallets].map(([network, address]) => ({ network, address })),
      random: this.random.state(),
    };
  }

  /** One static address as exportState lists it; undefined when there is none. */
  exportRecord(uuid: string): SandboxStateStaticAddress | undefined {
    const record = this.collection.get(uuid);
    return record === undefined ? undefined : staticAddressState(record);
  }

  /**
   * Puts a snapshot's static addresses and hot wallets (at `pointer`) into this freshly built
   * service, reserving their destinations with the deposits (restored after them: their payments
   * count through staticPayment), and resumes the stream at `randomAt`; throws StateRejected.
   */
  restoreState(
    state: { addresses: readonly SandboxStateStaticAddress[]; hotWallets: readonly SandboxStateStaticAddressHotWallet[]; randomAt: number },
    references: Pick<StateReferences, 'site'>,
    pointer: string,
  ): void {
    this.random = createRandom(this.random.seed, state.randomAt);
    this.data = createChainData(this.random);
    state.addresses.forEach(({ siteId, createdAtMs, ...rest }, index) => {
      const at = `${pointer}/staticAddresses/${index}`;
      const asset = restoredAsset(rest.asset, `${at}/asset`);
      const site = references.site(siteId, `${at}/siteId`);
      const key = JSON.stringify([site.id, rest.orderId]);
      if (this.collection.get(rest.uuid) !== undefined) throw new StateRejected(`${at}/uuid`, 'another static address has this uuid');
      if (this.byOrder.has(key)) throw new StateRejected(`${at}/orderId`, 'the site has another static address for this order id');
      this.deposits.restoreReservation(asset.network, rest.address, rest.memo, at);
      const record: StaticAddressRecord = {
        ...rest,
        site,
        network: asset.network,
        status: requireOneOf(rest.status, staticAddressMachine.states, `${at}/status`),
        paymentsCount: 0,
        createdAt: new Date(createdAtMs),
      };
      this.byOrder.set(key, record);
      this.byDestination.set(destinationKey(record.network, record.address, record.memo), record);
      this.collection.upsert(record);
    });
    state.hotWallets.forEach(({ network, address }, index) => {
      const at = `${pointer}/hotWallets/${index}`;
      const code = requireOneOf(network, networkCodes, `${at}/network`);
      if (this.hotWallets.has(code)) throw new StateRejected(`${at}/network`, `another hot wallet is on ${network}`);
      this.hotWallets.set(code, address);
    });
  }

  /**
   * A restored deposit's static address: a payment to it is of its site, order and asset, and
   * counts among its payments; throws StateRejected when there is no such static address.
   */
  staticPayment(uuid: string, deposit: Pick<SandboxStateDeposit, 'siteId' | 'orderId' | 'asset'>, pointer: string): StaticAddressRef {
    const ref = this.paymentRef(uuid, deposit, pointer);
    this.collection.get(uuid)!.paymentsCount += 1;
    return ref;
  }

  /** As staticPayment, without counting the payment (a deposit read from a store that counts them: countPayments). */
  paymentRef(uuid: string, deposit: Pick<SandboxStateDeposit, 'siteId' | 'orderId' | 'asset'>, pointer: string): StaticAddressRef {
    const record = this.collection.get(uuid);
    if (record === undefined) throw new StateRejected(pointer, 'no static address has this uuid');
    if (record.site.id !== deposit.siteId || record.orderId !== deposit.orderId || record.asset !== deposit.asset) {
      throw new StateRejected(pointer, 'a payment to this static address is of its site, order id and asset');
    }
    return { uuid: record.uuid, orderId: record.orderId };
  }

  /** Sets each restored address's payments count to its deposits' (`payments(uuid)`): the deposits stayed in the store. */
  countPayments(payments: (uuid: string) => number): void {
    for (const record of this.collection.values()) record.paymentsCount = payments(record.uuid);
  }

  /** The chain watcher's first question: is this a payment to an active static address? */
  private claim(tx: ChainTransaction) {
    const memo = requireNetwork(tx.network).memoName !== null ? tx.memo : null;
    const record = this.byDestination.get(destinationKey(tx.network, tx.address, memo));
    if (record === undefined || record.status !== 'active') return null;
    record.paymentsCount += 1;
    return { site: record.site, orderId: record.orderId, asset: record.asset, staticAddress: { uuid: record.uuid, orderId: record.orderId } };
  }

  /** A payment reached a final state: move its funds to the hot wallet now (deposit.swept). */
  private sweep(deposit: DepositRecord, atMs: number): void {
    const amount = this.deposits.view(deposit).receivedAmount;
    const sweep = {
      txHash: this.data.txHash(deposit.network),
      amount,
      toAddress: this.hotWallet(deposit.network),
      sweptAt: new Date(atMs).toISOString(),
    };
    this.deposits.emit(deposit, 'deposit.swept', { sweep });
  }

  private hotWallet(network: NetworkCode): string {
    let address = this.hotWallets.get(network);
    if (address === undefined) {
      address = this.data.address(network, 'deposit');
      this.hotWallets.set(network, address);
    }
    return address;
  }
}

function staticAddressState({ site, network: _assetsNetwork, paymentsCount: _countedFromDeposits, createdAt, ...rest }: StaticAddressRecord): SandboxStateStaticAddress {
  return { ...rest, siteId: site.id, createdAtMs: createdAt.getTime() };
}

function destinationKey(network: NetworkCode, address: string, memo: string | null): string {
  return JSON.stringify([network, address, memo]);
}
