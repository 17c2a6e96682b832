// AML source-of-funds screening of deposits (getDepositAml / getDepositAmlByOrderId and the
// Deposit's `amlStatus`): the sender address of the deposit's transaction (the latest credited,
// the one the Deposit shows) is sent to the sandbox's simulated AML provider (domain/aml), once
// per transaction; the screening is `pending` until the provider's answer is ready and is
// reconciled on read (a poll of the provider), then `completed` with its score and level, or
// `failed` with the provider's reason.
// `not_checked` (with the reason) when AML is off for the site, no transaction has been seen, or
// the provider does not screen the deposit's currency on its network (allowlist; an empty
// allowlist, i.e. not synced, screens everything, as for AML checks).
import type { DepositAml, DepositAmlStatus } from '../../../generated/deposit-v1/types.js';
import { amlCheckMachine } from '../../../generated/machines.js';
import type { SandboxStateDepositScreening } from '../../../generated/sandbox-control/types.js';
import type { Clock } from '../../clock.js';
import { applyProviderAnswer, initialAmlState, type ScreeningResult } from '../aml/aml-machine.js';
import type { AmlProvider, AmlProviderJob } from '../aml/aml-provider.js';
import { requireOneOf, StateRejected } from '../state-rejected.js';
import { findAsset } from './assets.js';
import type { SimulatedChain } from './chain-simulator.js';
import type { DepositRecord } from './deposit-records.js';
import type { RecordMarks } from '../record-marks.js';

export const notCheckedReasons = {
  amlOff: 'AML screening is off for this site.',
  noTransaction: 'No incoming transaction has been seen yet.',
  unsupported: (ticker: string, network: string) => `The AML provider does not screen ${ticker} on network ${network}.`,
} as const;

/** Why a deposit is not screened (notCheckedReasons), and the sender when one is known. */
interface NotChecked {
  notChecked: string;
  senderAddress: string | null;
}

const amlOff: NotChecked = Object.freeze({ notChecked: notCheckedReasons.amlOff, senderAddress: null });
const noTransaction: NotChecked = Object.freeze({ notChecked: notCheckedReasons.noTransaction, senderAddress: null });

interface DepositScreening extends ScreeningResult {
  hash: string;
  senderAddress: string;
  job: AmlProviderJob;
}

/**
 * The AML screenings of one sandbox's deposits, kept per deposit record; a sandbox reset builds
 * new deposits and a new screening, so nothing outlives its generation.
 */
export class DepositAmlScreening {
  private readonly screenings = new WeakMap<DepositRecord, DepositScreening>();

  constructor(
    private readonly clock: Clock,
    private readonly provider: AmlProvider,
    /** The deposits' chain: the sender of a credited transaction. */
    private readonly chain: SimulatedChain,
    private readonly marks: RecordMarks,
    /** Reports a deposit whose `amlStatus` changed (DepositService.changed: its store and the journal). */
    private readonly depositChanged: (deposit: DepositRecord) => void,
  ) {}

  /**
   * The deposit's AML data as it stands now: starts the screening of a newly seen transaction,
   * reconciles a pending one with the provider, and keeps `deposit.amlStatus` in step.
   */
  sync(deposit: DepositRecord): DepositAml {
    const outcome = this.screen(deposit);
    this.keepStatus(deposit, statusOf(outcome));
    const base = { depositUuid: deposit.uuid, orderId: deposit.orderId, amlStatus: deposit.amlStatus };
    if ('notChecked' in outcome) return { ...base, reason: outcome.notChecked, senderAddress: outcome.senderAddress, riskScore: null, riskLevel: null, checkedAt: null };
    const { reason, senderAddress, riskScore, riskLevel, checkedAt } = outcome;
    return { ...base, reason, senderAddress, riskScore, riskLevel, checkedAt: checkedAt?.toISOString() ?? null };
  }

  /**
   * What sync does to the deposit, without building its AML view: every Deposit view runs this
   * (a list page of 20 deposits runs it 20 times), and it only shows `amlStatus`.
   */
  syncStatus(deposit: DepositRecord): void {
    this.keepStatus(deposit, statusOf(this.screen(deposit)));
  }

  private keepStatus(deposit: DepositRecord, status: DepositAmlStatus): void {
    if (deposit.amlStatus === status) return;
    deposit.amlStatus = status;
    this.depositChanged(deposit);
  }

  /** The screenings of these deposits, in their order (snapshots). */
  exportState(deposits: Iterable<DepositRecord>): SandboxStateDepositScreening[] {
    const states: SandboxStateDepositScreening[] = [];
    for (const deposit of deposits) {
      const screening = this.screenings.get(deposit);
      if (screening !== undefined) states.push(screeningState(deposit, screening));
    }
    return states;
  }

  /** The deposit's screening of transaction `hash` as exportState lists it; undefined when it has none (any more). */
  exportRecord(deposit: DepositRecord | undefined, hash: string): SandboxStateDepositScreening | undefined {
    const screening = deposit === undefined ? undefined : this.screenings.get(deposit);
    return screening === undefined || screening.hash !== hash ? undefined : screeningState(deposit!, screening);
  }

  /**
   * Puts a snapshot's screenings (at `pointer`) onto the restored deposits; the sender screened is
   * the screened transaction's. Throws StateRejected.
   */
  restoreState(records: readonly SandboxStateDepositScreening[], depositOf: (uuid: string) => DepositRecord | undefined, pointer: string): void {
    records.forEach((record, index) => {
      const at = `${pointer}/${index}`;
      const deposit = depositOf(record.depositUuid);
      if (deposit === undefined) throw new StateRejected(`${at}/depositUuid`, 'no deposit has this uuid');
      if (this.screenings.has(deposit)) throw new StateRejected(`${at}/depositUuid`, 'the deposit has another screening');
      if (!deposit.transactionHashes.includes(record.hash)) throw new StateRejected(`${at}/hash`, 'is not a transaction credited to the deposit');
      const senderAddress = this.chain.require(record.hash).from;
      this.screenings.set(deposit, {
        hash: record.hash,
        senderAddress,
        job: { address: senderAddress, answer: record.job.answer, readyAtMs: record.job.readyAtMs },
        status: requireOneOf(record.status, amlCheckMachine.states, `${at}/status`),
        riskScore: record.riskScore,
        riskLevel: record.riskLevel,
        reason: record.reason,
        checkedAt: record.checkedAtMs === null ? null : new Date(record.checkedAtMs),
      });
    });
  }

  /** The deposit's screening, started or reconciled now; or why it is not checked. */
  private screen(deposit: DepositRecord): DepositScreening | NotChecked {
    if (!deposit.site.amlEnabled) return amlOff;
    const hash = deposit.transactionHashes[deposit.transactionHashes.length - 1];
    if (hash === undefined) return noTransaction;
    const sender = this.chain.require(hash).from;
    const { provider } = this;
    const now = this.clock.now();

    let current = this.screenings.get(deposit);
    if (current !== undefined && current.hash === hash) {
      if (current.status === 'pending') {
        applyProviderAnswer(current, provider.poll(current.job, now.getTime()), now);
        this.marks.changed('depositScreening', screeningId(deposit, current));
      }
    } else {
      const ticker = findAsset(deposit.asset)?.ticker ?? deposit.asset;
      if (provider.currencyNotInAllowlist(ticker, deposit.network)) return { notChecked: notCheckedReasons.unsupported(ticker, deposit.network), senderAddress: sender };
      const job = provider.submit(sender, now.getTime());
      current = { hash, senderAddress: sender, status: initialAmlState, job, riskScore: null, riskLevel: null, reason: null, checkedAt: null };
      applyProviderAnswer(current, provider.answerOf(job, now.getTime()), now);
      // A screening of an earlier transaction is replaced: its row goes.
      if (this.screenings.has(deposit)) this.marks.removed('depositScreening', screeningId(deposit, this.screenings.get(deposit)!));
      this.screenings.set(deposit, current);
      this.marks.changed('depositScreening', screeningId(deposit, current));
    }
    return current;
  }
}

function screeningState(deposit: DepositRecord, screening: DepositScreening): SandboxStateDepositScreening {
  const { hash, status, riskScore, riskLevel, reason, checkedAt, job } = screening;
  return { depositUuid: deposit.uuid, hash, status, riskScore, riskLevel, reason, checkedAtMs: checkedAt?.getTime() ?? null, job: { answer: { ...job.answer }, readyAtMs: job.readyAtMs } };
}

/** A screening's id in the journal: its deposit's uuid and the transaction's hash. */
function screeningId(deposit: DepositRecord, screening: DepositScreening): string {
  return `${deposit.uuid} ${screening.hash}`;
}

function statusOf(outcome: DepositScreening | NotChecked): DepositAmlStatus {
  if ('notChecked' in outcome) return 'not_checked';
  return outcome.status === 'pending' || outcome.status === 'completed' ? outcome.status : 'failed';
}
