// What the mock keeps of a v1 deposit, decimal-string arithmetic for its amounts (no floats), and
// the contract's Deposit / DepositTransaction views of it. The state lives in `status` and only
// deposit-service.ts changes it, by executing the generated deposit machine.
import type { Deposit, DepositAmlStatus, DepositTransaction, StaticAddressRef } from '../../../generated/deposit-v1/types.js';
import { depositMachine, type DepositState } from '../../../generated/machines.js';
import { addAmounts } from '../../decimal.js';
import { isoTime } from '../../iso-time.js';
import type { Site } from '../accounts/sites.js';
import type { ChainTransaction, SimulatedChain } from './chain-simulator.js';
import type { NetworkCode } from './networks.js';

// A million of these may be stored (the scale target is 1 KB each, indexes included), so a
// record keeps instants as epoch milliseconds (a Date object is ~100 bytes), shares one empty list
// until a transaction is credited, and has every field from creation (one hidden class, no
// out-of-object property store).
export interface DepositRecord {
  /** Creation order within the sandbox (the order a tick settles due deposits in). */
  readonly seq: number;
  readonly uuid: string;
  readonly site: Site;
  readonly orderId: string;
  readonly asset: string;
  readonly network: NetworkCode;
  readonly address: string;
  readonly memo: string | null;
  /** Expected amount; null accepts any. */
  readonly amount: string | null;
  status: DepositState;
  amlStatus: DepositAmlStatus;
  /** Hashes of the chain transactions credited to the deposit, oldest first (replaced, never mutated). */
  transactionHashes: readonly string[];
  /** When the deposit saw each credited transaction (epoch ms), in the order of transactionHashes. */
  seenAtMs: readonly number[];
  readonly expiresAtMs: number;
  /** When the deposit entered `expired` (the late window counts from it); null otherwise. */
  expiredAtMs: number | null;
  /** When the last confirmed transition happened (the transaction's confirmedAt). */
  confirmedAtMs: number | null;
  readonly createdAtMs: number;
  updatedAtMs: number;
  paidAtMs: number | null;
  /** Last accepted refreshDeposit (virtual clock); null before any. */
  lastRefreshAtMs: number | null;
  /** The static address this deposit is a payment to (static-address-service.ts); null otherwise. */
  readonly staticAddress: StaticAddressRef | null;
}

/** The list of a deposit with nothing credited yet, shared by all of them. */
export const noneCredited: readonly never[] = Object.freeze([]);

// ---------------------------------------------------------------------------------------------
// Views

export function isFinalStatus(status: DepositState): boolean {
  return depositMachine.terminal.includes(status);
}

/** Total credited so far, "0" before any transaction. */
export function receivedAmount(deposit: DepositRecord, chain: SimulatedChain): string {
  return deposit.transactionHashes.reduce((sum, hash) => addAmounts(sum, chain.require(hash).amount), '0');
}

export function transactionView(deposit: DepositRecord, tx: ChainTransaction, chain: SimulatedChain, now: Date): DepositTransaction {
  const confirmations = chain.confirmations(tx, now);
  return {
    hash: tx.hash,
    amount: tx.amount,
    fromAddress: tx.from,
    confirmations,
    requiredConfirmations: tx.requiredConfirmations,
    blockHeight: confirmations > 0 ? tx.blockHeight : null,
    detectedAt: isoTime(deposit.seenAtMs[deposit.transactionHashes.indexOf(tx.hash)] ?? tx.createdAt.getTime()),
    confirmedAt: chain.confirmedAt(tx, now)?.toISOString() ?? null,
  };
}

/** The contract's Deposit; `transaction` is the latest credited transaction, null before any. */
export function depositView(deposit: DepositRecord, chain: SimulatedChain, now: Date): Deposit {
  const lastHash = deposit.transactionHashes[deposit.transactionHashes.length - 1];
  return {
    uuid: deposit.uuid,
    orderId: deposit.orderId,
    asset: deposit.asset,
    network: deposit.network,
    address: deposit.address,
    memo: deposit.memo,
    amount: deposit.amount,
    receivedAmount: receivedAmount(deposit, chain),
    status: deposit.status,
    isFinal: isFinalStatus(deposit.status),
    amlStatus: deposit.amlStatus,
    transaction: lastHash === undefined ? null : transactionView(deposit, chain.require(lastHash), chain, now),
    staticAddress: deposit.staticAddress,
    expiresAt: isoTime(deposit.expiresAtMs),
    createdAt: isoTime(deposit.createdAtMs),
    updatedAt: isoTime(deposit.updatedAtMs),
    paidAt: deposit.paidAtMs === null ? null : isoTime(deposit.paidAtMs),
  };
}
