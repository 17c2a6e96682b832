// The simulated AML provider of a sandbox: its currency allowlist (by default the deposit
// catalog's listed assets minus TON, which some providers do not screen), its answers per
// address (configured through the control API: a score and level, or a failure; otherwise a low
// score derived from a hash of the address, ready at once) and a counter of the requests it
// received, i.e. the quota consumed.
import { createHash } from 'node:crypto';
import type { SandboxStateAmlProvider } from '../../../generated/sandbox-control/types.js';
import { listedAssets, type AssetDefinition } from '../deposits/assets.js';
import { StateRejected } from '../state-rejected.js';

export type AmlRiskLevel = 'low' | 'medium' | 'high' | 'severe';

/** The provider's name on every check (AmlCheck.provider). */
export const amlProviderName = 'amlbot';

/** Networks the simulated provider does not screen by default (domain notes: "no TON at some providers"). */
export const unsupportedByDefault: readonly string[] = ['TON'];

export interface AmlCurrencyEntry {
  code: string;
  network: string;
  name: string;
}

/** What the provider answers a screening: a score and level, or that it cannot screen it. */
export type AmlProviderAnswer = { failed: false; score: number; level: AmlRiskLevel } | { failed: true; reason: string };

/** The reason of a failure configured without one. */
export const defaultFailureReason = 'The provider could not screen the address.';

export interface AmlAnswerConfig {
  address: string;
  answer: AmlProviderAnswer;
  delaySeconds: number;
  createdAt: Date;
}

/** A request the provider received: its answer is fixed when it arrives, ready at `readyAtMs`. */
export interface AmlProviderJob {
  address: string;
  answer: AmlProviderAnswer;
  readyAtMs: number;
}

export type AmlPollResult = ({ ready: true } & AmlProviderAnswer) | { ready: false };

/** The AmlCurrency name of a catalog asset: tokens name their standard, as gateways list them. */
export function amlCurrencyName(asset: AssetDefinition): string {
  return asset.tokenStandard === null ? asset.name : `${asset.name} (${asset.tokenStandard})`;
}

export function defaultAllowlist(): AmlCurrencyEntry[] {
  return listedAssets()
    .filter((a) => !unsupportedByDefault.includes(a.network))
    .map((a) => ({ code: a.ticker, network: a.network, name: amlCurrencyName(a) }));
}

/** The catalog's name for (code, network), if the catalog lists such an asset. */
export function catalogCurrencyName(code: string, network: string): string | undefined {
  const asset = listedAssets().find((a) => a.ticker === code && a.network === network);
  return asset === undefined ? undefined : amlCurrencyName(asset);
}

/** What an address without a configured answer gets: a low score (0..24.9) from its SHA-256. */
export function defaultAnswer(address: string): AmlProviderAnswer {
  const digest = createHash('sha256').update(address).digest();
  return { failed: false, score: digest.readUInt32BE(0) % 250 / 10, level: 'low' };
}

export class AmlProvider {
  /** Requests received (quota consumed). */
  private callCount = 0;
  private allowlist: AmlCurrencyEntry[] = defaultAllowlist();
  private readonly answers = new Map<string, AmlAnswerConfig>();

  get calls(): number {
    return this.callCount;
  }

  currencies(): readonly AmlCurrencyEntry[] {
    return this.allowlist;
  }

  setCurrencies(entries: readonly AmlCurrencyEntry[]): void {
    this.allowlist = entries.map((e) => ({ ...e }));
  }

  /**
   * The machine's currency_not_in_allowlist guard. An empty allowlist (not synced) skips
   * nothing: screening is still tried (the machine file's note on the guard).
   */
  currencyNotInAllowlist(code: string, network: string): boolean {
    return this.allowlist.length > 0 && !this.allowlist.some((e) => e.code === code && e.network === network);
  }

  setAnswer(answer: AmlAnswerConfig): AmlAnswerConfig {
    // Re-inserted so the list shows the answers in the order they were last set.
    this.answers.delete(answer.address);
    this.answers.set(answer.address, { ...answer, answer: { ...answer.answer } });
    return answer;
  }

  listAnswers(): AmlAnswerConfig[] {
    return [...this.answers.values()];
  }

  /** The call count, the allowlist and the configured answers, as a snapshot holds them. */
  exportState(): SandboxStateAmlProvider {
    return {
      calls: this.callCount,
      allowlist: this.allowlist.map((entry) => ({ ...entry })),
      answers: this.listAnswers().map(({ createdAt, answer, ...rest }) => ({ ...rest, answer: { ...answer }, createdAtMs: createdAt.getTime() })),
    };
  }

  /** Replaces the settings with a snapshot's (at `pointer`); throws StateRejected when two answers are for one address. */
  restoreState(state: SandboxStateAmlProvider, pointer: string): void {
    this.callCount = state.calls;
    this.setCurrencies(state.allowlist);
    this.answers.clear();
    state.answers.forEach(({ createdAtMs, ...answer }, index) => {
      if (this.answers.has(answer.address)) throw new StateRejected(`${pointer}/answers/${index}/address`, 'another answer is for this address');
      this.setAnswer({ ...answer, createdAt: new Date(createdAtMs) });
    });
  }

  /** Sends a screening of `address`: one request; the answer is fixed now. */
  submit(address: string, nowMs: number): AmlProviderJob {
    this.callCount += 1;
    const configured = this.answers.get(address);
    if (configured === undefined) return { address, answer: defaultAnswer(address), readyAtMs: nowMs };
    return { address, answer: configured.answer, readyAtMs: nowMs + configured.delaySeconds * 1000 };
  }

  /** Asks for the result of an earlier request: one request. */
  poll(job: AmlProviderJob, nowMs: number): AmlPollResult {
    this.callCount += 1;
    return this.answerOf(job, nowMs);
  }

  /** The result of a request as it stands at `nowMs`, without a new request (used right after submit). */
  answerOf(job: AmlProviderJob, nowMs: number): AmlPollResult {
    return nowMs >= job.readyAtMs ? { ready: true, ...job.answer } : { ready: false };
  }
}
