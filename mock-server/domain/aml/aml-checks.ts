// AML checks of the v1 family over the simulated provider, executing the generated aml-check
// machine: a currency outside the allowlist is skipped at creation (currency_unsupported);
// otherwise the check is sent to the provider and completes when its answer is ready
// (provider_answered), or fails when the provider cannot screen it (provider_failed), at creation
// or when a read of the pending check asks the provider again ("reconciled on read"). Checks are scoped to the site that created them. A sandbox reset builds
// a new screening, so the provider (allowlist, answers, counter) and the checks start afresh.
import type { AmlCheck } from '../../../generated/deposit-v1/types.js';
import { amlCheckMachine } from '../../../generated/machines.js';
import type { SandboxStateAmlCheck } from '../../../generated/sandbox-control/types.js';
import type { Clock } from '../../clock.js';
import type { Random } from '../../random.js';
import { FifosByOwner } from '../../store/fifo.js';
import { networkCodes } from '../deposits/networks.js';
import { requireOneOf, StateRejected, type StateReferences } from '../state-rejected.js';
import { randomUuid } from '../webhooks/ids.js';
import type { RecordMarks } from '../record-marks.js';
import { applyProviderAnswer, CURRENCY_NOT_IN_ALLOWLIST, fireAml, initialAmlState, type AmlCheckState } from './aml-machine.js';
import { AmlProvider, amlProviderName, type AmlProviderJob, type AmlRiskLevel } from './aml-provider.js';

export interface AmlCheckInput {
  type: 'address' | 'transaction';
  currency: string;
  network: string;
  address: string;
  txHash: string | null;
}

export interface AmlCheckRecord extends AmlCheckInput {
  uuid: string;
  siteId: number;
  status: AmlCheckState;
  riskScore: number | null;
  riskLevel: AmlRiskLevel | null;
  provider: string;
  reason: string | null;
  createdAt: Date;
  checkedAt: Date | null;
  /** The provider request; null for a skipped check (nothing was sent). */
  job: AmlProviderJob | null;
}

// Keyed by the generated type, so the compiler keeps the list and the v1 contract in step.
const checkTypeSet: Readonly<Record<AmlCheck['type'], true>> = { address: true, transaction: true };
const checkTypes = Object.keys(checkTypeSet) as AmlCheck['type'][];

/** Checks kept per site; past this a site forgets its own oldest, never another site's. */
export const maxAmlChecksPerSite = 100_000;

export class AmlScreening {
  readonly provider = new AmlProvider();
  private readonly checks = new Map<string, AmlCheckRecord>();
  /** Each site's check uuids, oldest first: what its bound forgets. */
  private readonly bySite = new FifosByOwner<number, string>();

  constructor(
    private readonly clock: Clock,
    /** The check uuids' source: the sandbox's main stream, as the ids of keys and sites. */
    private readonly random: Random,
    private readonly marks: RecordMarks,
    private readonly maxPerSite = maxAmlChecksPerSite,
  ) {}

  create(siteId: number, input: AmlCheckInput): AmlCheckRecord {
    const now = this.clock.now();
    const record: AmlCheckRecord = {
      ...input,
      uuid: this.newUuid(),
      siteId,
      status: initialAmlState,
      riskScore: null,
      riskLevel: null,
      provider: amlProviderName,
      reason: null,
      createdAt: now,
      checkedAt: null,
      job: null,
    };
    if (this.provider.currencyNotInAllowlist(input.currency, input.network)) {
      record.status = fireAml(record.status, 'currency_unsupported', { [CURRENCY_NOT_IN_ALLOWLIST]: true });
      record.reason = `The provider does not support ${input.currency} on network ${input.network}.`;
      record.checkedAt = now;
    } else {
      record.job = this.provider.submit(input.address, now.getTime());
      applyProviderAnswer(record, this.provider.answerOf(record.job, now.getTime()), now);
    }
    this.remember(record);
    return record;
  }

  /** The site's check, reconciled with the provider when it is pending; undefined for another site's. */
  get(siteId: number, uuid: string): AmlCheckRecord | undefined {
    const record = this.checks.get(uuid);
    if (record === undefined || record.siteId !== siteId) return undefined;
    if (record.status === 'pending' && record.job !== null) {
      const now = this.clock.now();
      applyProviderAnswer(record, this.provider.poll(record.job, now.getTime()), now);
      this.marks.changed('amlCheck', uuid);
    }
    return record;
  }

  /** Every site's checks as they stand, oldest first, without asking the provider (the inspector). */
  values(): IterableIterator<AmlCheckRecord> {
    return this.checks.values();
  }

  /** Every check, oldest first, as a snapshot holds them (the provider's name and the job's address are the check's). */
  exportState(): SandboxStateAmlCheck[] {
    return [...this.checks.values()].map(checkState);
  }

  /** One check as exportState lists it; undefined when there is none. */
  exportRecord(uuid: string): SandboxStateAmlCheck | undefined {
    const record = this.checks.get(uuid);
    return record === undefined ? undefined : checkState(record);
  }

  /** Replaces the checks with a snapshot's (at `pointer`); the provider's settings are restored apart. Throws StateRejected. */
  restoreState(records: readonly SandboxStateAmlCheck[], references: Pick<StateReferences, 'site'>, pointer: string): void {
    this.checks.clear();
    this.bySite.clear();
    records.forEach(({ createdAtMs, checkedAtMs, job, ...rest }, index) => {
      const at = `${pointer}/${index}`;
      if (this.checks.has(rest.uuid)) throw new StateRejected(`${at}/uuid`, 'another AML check has this uuid');
      this.remember({
        ...rest,
        siteId: references.site(rest.siteId, `${at}/siteId`).id,
        type: requireOneOf(rest.type, checkTypes, `${at}/type`),
        network: requireOneOf(rest.network, networkCodes, `${at}/network`),
        status: requireOneOf(rest.status, amlCheckMachine.states, `${at}/status`),
        provider: amlProviderName,
        createdAt: new Date(createdAtMs),
        checkedAt: checkedAtMs === null ? null : new Date(checkedAtMs),
        job: job === null ? null : { address: rest.address, answer: job.answer, readyAtMs: job.readyAtMs },
      });
    });
  }

  private remember(record: AmlCheckRecord): void {
    for (const oldest of this.bySite.push(record.siteId, record.uuid, this.maxPerSite)) {
      this.checks.delete(oldest);
      this.marks.removed('amlCheck', oldest);
    }
    this.checks.set(record.uuid, record);
    this.marks.changed('amlCheck', record.uuid);
  }

  private newUuid(): string {
    let uuid = randomUuid(this.random);
    while (this.checks.has(uuid)) uuid = randomUuid(this.random);
    return uuid;
  }
}

function checkState({ provider: _name, createdAt, checkedAt, job, ...rest }: AmlCheckRecord): SandboxStateAmlCheck {
  return {
    ...rest,
    createdAtMs: createdAt.getTime(),
    checkedAtMs: checkedAt?.getTime() ?? null,
    job: job === null ? null : { answer: { ...job.answer }, readyAtMs: job.readyAtMs },
  };
}
