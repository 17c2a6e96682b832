// A deposit as a sandbox snapshot holds it and back: the site and the static address become ids,
// the network (the asset's) and the creation sequence (the position in the list) are left out.
// The indexes are the service's to rebuild (deposit-service.ts).
import type { DepositAmlStatus, StaticAddressRef } from '../../../generated/deposit-v1/types.js';
import { depositMachine } from '../../../generated/machines.js';
import type { SandboxStateDeposit } from '../../../generated/sandbox-control/types.js';
import type { Site } from '../accounts/sites.js';
import { requireOneOf, StateRejected } from '../state-rejected.js';
import { findAsset, type AssetDefinition } from './assets.js';
import { noneCredited, type DepositRecord } from './deposit-records.js';

// Keyed by the generated type, so the compiler keeps the list and the v1 contract in step.
const amlStatusSet: Readonly<Record<DepositAmlStatus, true>> = { not_checked: true, pending: true, completed: true, skipped: true, failed: true };
const amlStatuses = Object.keys(amlStatusSet) as DepositAmlStatus[];

/** What a restored deposit refers to, looked up by the ids the snapshot holds; each throws StateRejected. */
export interface DepositReferences {
  site(id: number, pointer: string): Site;
  /** The static address `uuid` that the deposit (of `siteId`, `orderId` and `asset`) is a payment to. */
  staticPayment(uuid: string, deposit: Pick<SandboxStateDeposit, 'siteId' | 'orderId' | 'asset'>, pointer: string): StaticAddressRef;
}

/** The catalog's asset of a restored record (a deposit, a static address); throws StateRejected naming `pointer`. */
export function restoredAsset(code: string, pointer: string): AssetDefinition {
  const asset = findAsset(code);
  if (asset === undefined) throw new StateRejected(pointer, `${JSON.stringify(code)} is not an asset of the deposit catalog`);
  return asset;
}

export function depositState(deposit: DepositRecord): SandboxStateDeposit {
  const { seq: _position, site, network: _assetsNetwork, staticAddress, transactionHashes, seenAtMs, ...rest } = deposit;
  return {
    ...rest,
    siteId: site.id,
    transactionHashes: [...transactionHashes],
    seenAtMs: [...seenAtMs],
    staticAddressUuid: staticAddress?.uuid ?? null,
  };
}

/** The record of a snapshot's deposit at `pointer`; its credited transactions are the caller's to check. */
export function depositOf(state: SandboxStateDeposit, seq: number, references: DepositReferences, pointer: string): DepositRecord {
  const asset = restoredAsset(state.asset, `${pointer}/asset`);
  if (state.seenAtMs.length !== state.transactionHashes.length) throw new StateRejected(`${pointer}/seenAtMs`, 'needs one instant per credited transaction');
  // Every field in the order DepositService.newDeposit writes them: one hidden class for all deposits.
  return {
    seq,
    uuid: state.uuid,
    site: references.site(state.siteId, `${pointer}/siteId`),
    orderId: state.orderId,
    asset: asset.code,
    network: asset.network,
    address: state.address,
    memo: state.memo,
    amount: state.amount,
    status: requireOneOf(state.status, depositMachine.states, `${pointer}/status`),
    amlStatus: requireOneOf(state.amlStatus, amlStatuses, `${pointer}/amlStatus`),
    // A record with nothing credited shares the one empty list, as a created one does.
    transactionHashes: state.transactionHashes.length === 0 ? noneCredited : state.transactionHashes,
    seenAtMs: state.seenAtMs.length === 0 ? noneCredited : state.seenAtMs,
    expiresAtMs: state.expiresAtMs,
    expiredAtMs: state.expiredAtMs,
    confirmedAtMs: state.confirmedAtMs,
    createdAtMs: state.createdAtMs,
    updatedAtMs: state.updatedAtMs,
    paidAtMs: state.paidAtMs,
    lastRefreshAtMs: state.lastRefreshAtMs,
    staticAddress: state.staticAddressUuid === null ? null : references.staticPayment(state.staticAddressUuid, state, `${pointer}/staticAddressUuid`),
  };
}
