// The simulated chain behind the deposit gateway: the transactions a test injects through the
// control API, and their confirmations. A transaction's confirmations are an explicit base (set
// at injection, raised by the control API) plus the blocks the network produced on the virtual
// clock since that base was set (blocksIn), so they accrue as the clock advances.
import type { SandboxStateChainTransaction } from '../../../generated/sandbox-control/types.js';
import { requireOneOf, StateRejected } from '../state-rejected.js';
import type { ChainData } from './chain-data.js';
import { blocksIn, networkCodes, requireNetwork, type NetworkCode } from './networks.js';
import type { RecordMarks } from '../record-marks.js';

export interface ChainTransaction {
  hash: string;
  network: NetworkCode;
  address: string;
  /** The memo / destination tag / comment the payer added; null when none. */
  memo: string | null;
  amount: string;
  from: string;
  /** The network's defaultConfirmations when the transaction arrived. */
  requiredConfirmations: number;
  /** Height of the block that includes it (shown once it has a confirmation). */
  blockHeight: number;
  createdAt: Date;
  /** Explicit confirmations at `baseAt`; blocks produced since then add to them. */
  baseConfirmations: number;
  baseAt: Date;
}

export interface InjectInput {
  network: NetworkCode;
  address: string;
  memo?: string | null;
  amount: string;
  hash?: string;
  from?: string;
  confirmations?: number;
}

export class SimulatedChain {
  private readonly transactions = new Map<string, ChainTransaction>();

  constructor(
    private data: ChainData,
    private readonly marks: RecordMarks,
  ) {}

  has(hash: string): boolean {
    return this.transactions.has(hash);
  }

  get(hash: string): ChainTransaction | undefined {
    return this.transactions.get(hash);
  }

  require(hash: string): ChainTransaction {
    const tx = this.transactions.get(hash);
    if (tx === undefined) throw new Error(`no chain transaction ${hash}`);
    return tx;
  }

  /** Every transaction to (network, address), oldest first. */
  toAddress(network: NetworkCode, address: string): ChainTransaction[] {
    return [...this.transactions.values()].filter((tx) => tx.network === network && tx.address === address);
  }

  inject(input: InjectInput, now: Date): ChainTransaction {
    const network = requireNetwork(input.network);
    const hash = input.hash ?? this.data.txHash(network.code);
    if (this.transactions.has(hash)) throw new Error(`duplicate chain transaction ${hash}`);
    const tx: ChainTransaction = {
      hash,
      network: network.code,
      address: input.address,
      memo: input.memo ?? null,
      amount: input.amount,
      from: input.from ?? this.data.address(network.code, 'sender'),
      requiredConfirmations: network.defaultConfirmations,
      blockHeight: this.data.blockHeight(network.code),
      createdAt: now,
      baseConfirmations: input.confirmations ?? 0,
      baseAt: now,
    };
    this.transactions.set(hash, tx);
    this.marks.changed('transaction', hash);
    return tx;
  }

  /** Every transaction, oldest first, as a snapshot holds them (requiredConfirmations is the network's). */
  exportState(): SandboxStateChainTransaction[] {
    return [...this.transactions.values()].map(transactionState);
  }

  /** One transaction as exportState lists it; undefined when there is none. */
  exportRecord(hash: string): SandboxStateChainTransaction | undefined {
    const tx = this.transactions.get(hash);
    return tx === undefined ? undefined : transactionState(tx);
  }

  /**
   * Replaces the transactions with a snapshot's (`pointer` names its list), and the data new
   * hashes and senders are drawn from with `data` (the resumed stream); throws StateRejected.
   */
  restoreState(records: readonly SandboxStateChainTransaction[], data: ChainData, pointer: string): void {
    this.transactions.clear();
    records.forEach(({ createdAtMs, baseAtMs, ...record }, index) => {
      const network = requireNetwork(requireOneOf(record.network, networkCodes, `${pointer}/${index}/network`));
      if (this.transactions.has(record.hash)) throw new StateRejected(`${pointer}/${index}/hash`, 'another transaction has this hash');
      this.transactions.set(record.hash, {
        ...record,
        network: network.code,
        requiredConfirmations: network.defaultConfirmations,
        createdAt: new Date(createdAtMs),
        baseAt: new Date(baseAtMs),
      });
    });
    this.data = data;
  }

  /** Adds `count` explicit confirmations (on top of those accrued so far). */
  addConfirmations(tx: ChainTransaction, count: number, now: Date): void {
    tx.baseConfirmations = this.confirmations(tx, now) + count;
    tx.baseAt = now;
    this.marks.changed('transaction', tx.hash);
  }

  confirmations(tx: ChainTransaction, now: Date): number {
    return tx.baseConfirmations + blocksIn(requireNetwork(tx.network), now.getTime() - tx.baseAt.getTime());
  }

  /**
   * The instant the transaction reached its required confirmations (explicitly, or by the block
   * that brought the count there); null when it has not yet at `now`.
   */
  confirmedAt(tx: ChainTransaction, now: Date): Date | null {
    if (this.confirmations(tx, now) < tx.requiredConfirmations) return null;
    return new Date(this.confirmedAtMs(tx));
  }

  /** The instant (epoch ms) the transaction reaches, or reached, its required confirmations as blocks accrue. */
  confirmedAtMs(tx: ChainTransaction): number {
    const missing = tx.requiredConfirmations - tx.baseConfirmations;
    if (missing <= 0) return tx.baseAt.getTime();
    const blockMs = requireNetwork(tx.network).blockTimeSeconds * 1000;
    return tx.baseAt.getTime() + Math.ceil(missing * blockMs);
  }
}

function transactionState({ requiredConfirmations: _network, createdAt, baseAt, ...rest }: ChainTransaction): SandboxStateChainTransaction {
  return { ...rest, createdAtMs: createdAt.getTime(), baseAtMs: baseAt.getTime() };
}
