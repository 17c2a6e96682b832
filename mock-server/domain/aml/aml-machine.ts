// Runs the generated aml-check machine (contracts/machines/aml-check.yaml): the transitions and
// the guard are read from generated/machines.ts, never restated here; and applies a provider's
// answer to a screening through it.
import { amlCheckMachine, type AmlCheckEvent, type AmlCheckState } from '../../../generated/machines.js';
import type { AmlPollResult, AmlRiskLevel } from './aml-provider.js';

export type { AmlCheckEvent, AmlCheckState };

/** Guard name of the machine file; checked against the generated table at load. */
export const CURRENCY_NOT_IN_ALLOWLIST = 'currency_not_in_allowlist';
if (!(CURRENCY_NOT_IN_ALLOWLIST in amlCheckMachine.guards)) {
  throw new Error(`the aml-check machine lacks the ${CURRENCY_NOT_IN_ALLOWLIST} guard`);
}

export const initialAmlState: AmlCheckState = amlCheckMachine.initial;

export function isTerminalAmlState(state: AmlCheckState): boolean {
  return amlCheckMachine.terminal.includes(state);
}

/**
 * The state after `event` from `from`: the generated transition whose guard holds (or has
 * none). Throws when the machine has no such transition: the callers only fire events the
 * machine allows, so a refusal is a bug of the mock.
 */
export function fireAml(from: AmlCheckState, event: AmlCheckEvent, guards: Readonly<Record<string, boolean>> = {}): AmlCheckState {
  const candidates = amlCheckMachine.transitions.filter((t) => t.from === from && t.event === event);
  const open = candidates.filter((t) => t.guard === null || guards[t.guard] === true);
  const [transition, ...others] = open;
  if (transition === undefined || others.length > 0) {
    throw new Error(`aml-check machine: ${event} from ${from} has ${open.length} open transitions (of ${candidates.length})`);
  }
  return transition.to;
}

/** Whether `event` can fire from `from` with these guards. */
export function canFireAml(from: AmlCheckState, event: AmlCheckEvent, guards: Readonly<Record<string, boolean>> = {}): boolean {
  return amlCheckMachine.transitions.some((t) => t.from === from && t.event === event && (t.guard === null || guards[t.guard] === true));
}

/** What a screening shows once the provider's answer is in: its status, score and level, or why it failed. */
export interface ScreeningResult {
  status: AmlCheckState;
  riskScore: number | null;
  riskLevel: AmlRiskLevel | null;
  reason: string | null;
  checkedAt: Date | null;
}

/**
 * Applies the provider's answer to a pending screening (an AML check, a deposit's source-of-funds
 * screening): provider_answered with its score and level, or provider_failed with its reason.
 * Nothing changes while the answer is not ready.
 */
export function applyProviderAnswer(screening: ScreeningResult, answer: AmlPollResult, now: Date): void {
  if (!answer.ready) return;
  if (answer.failed) {
    screening.status = fireAml(screening.status, 'provider_failed');
    screening.reason = answer.reason;
  } else {
    screening.status = fireAml(screening.status, 'provider_answered');
    screening.riskScore = answer.score;
    screening.riskLevel = answer.level;
  }
  screening.checkedAt = now;
}
