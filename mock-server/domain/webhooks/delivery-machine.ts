// Runs the generated webhook-delivery machine (contracts/machines/webhook-delivery.yaml): the
// transitions, the retry schedule and the attempt timeout are read from generated/machines.ts,
// never restated here. Integrators who know the real service's schedule may override it.
import {
  webhookDeliveryMachine,
  type Transition,
  type WebhookDeliveryEvent,
  type WebhookDeliveryState,
} from '../../../generated/machines.js';

export type DeliveryStatus = WebhookDeliveryState;
export type DeliveryEvent = WebhookDeliveryEvent;
export type DeliveryTransition = Transition<DeliveryStatus, DeliveryEvent>;

export type TransitionDecision =
  | { ok: true; to: DeliveryStatus; transition: DeliveryTransition }
  | { ok: false; reason: string };

export interface DeliveryMachineOptions {
  /** Seconds before each attempt: entry n is the delay before attempt n+1 (entry 0: the first). */
  scheduleSeconds?: readonly number[];
  attemptTimeoutSeconds?: number;
}

// Timer and guard names of the machine file; checked against the generated table at load.
const RETRY_SCHEDULE = 'retry_schedule';
const ATTEMPT_TIMEOUT = 'attempt_timeout';
export const ATTEMPTS_REMAINING = 'attempts_remaining';
export const ATTEMPTS_EXHAUSTED = 'attempts_exhausted';

const generatedSchedule = webhookDeliveryMachine.timers[RETRY_SCHEDULE]?.scheduleSeconds;
const generatedTimeout = webhookDeliveryMachine.timers[ATTEMPT_TIMEOUT]?.seconds;
if (generatedSchedule === undefined || generatedTimeout === undefined) {
  throw new Error(`the webhook-delivery machine lacks the ${RETRY_SCHEDULE} or ${ATTEMPT_TIMEOUT} timer`);
}
for (const guard of [ATTEMPTS_REMAINING, ATTEMPTS_EXHAUSTED]) {
  if (!(guard in webhookDeliveryMachine.guards)) throw new Error(`the webhook-delivery machine lacks the ${guard} guard`);
}

export class DeliveryMachine {
  readonly machine = webhookDeliveryMachine;
  readonly scheduleSeconds: readonly number[];
  /** One attempt per schedule entry. */
  readonly maxAttempts: number;
  readonly attemptTimeoutMs: number;

  constructor(options: DeliveryMachineOptions = {}) {
    const schedule = options.scheduleSeconds ?? generatedSchedule ?? [];
    if (schedule.length === 0 || schedule.some((s) => !Number.isFinite(s) || s < 0)) {
      throw new RangeError('the retry schedule needs at least one non-negative number of seconds');
    }
    const timeout = options.attemptTimeoutSeconds ?? generatedTimeout ?? 0;
    if (!(timeout > 0)) throw new RangeError('the attempt timeout must be positive');
    this.scheduleSeconds = [...schedule];
    this.maxAttempts = schedule.length;
    this.attemptTimeoutMs = timeout * 1000;
  }

  get initial(): DeliveryStatus {
    return this.machine.initial;
  }

  isTerminal(status: DeliveryStatus): boolean {
    return this.machine.terminal.includes(status);
  }

  /** Whether an attempt may be made in this status (the statuses with an attempt_* transition). */
  awaitsAttempt(status: DeliveryStatus): boolean {
    return this.machine.transitions.some((t) => t.from === status && t.event === 'attempt_succeeded');
  }

  /**
   * The generated transition for (from, event) whose guard holds (or has none); a refusal
   * naming why otherwise. A guard missing from `guards` counts as false.
   */
  nextStatus(from: DeliveryStatus, event: DeliveryEvent, guards: Readonly<Record<string, boolean>> = {}): TransitionDecision {
    const candidates = this.machine.transitions.filter((t) => t.from === from && t.event === event);
    if (candidates.length === 0) {
      return { ok: false, reason: `a ${from} delivery has no ${event} transition (${this.allowedEvents(from)})` };
    }
    const open = candidates.filter((t) => t.guard === null || guards[t.guard] === true);
    const [transition, ...others] = open;
    if (transition === undefined) {
      const names = candidates.map((t) => t.guard).join(', ');
      return { ok: false, reason: `${event} from ${from}: no guard holds (${names})` };
    }
    if (others.length > 0) return { ok: false, reason: `${event} from ${from}: more than one guard holds` };
    return { ok: true, to: transition.to, transition };
  }

  /** Milliseconds to wait before attempt `attempt` (1 = the first delivery); null past the schedule. */
  retryDelayMs(attempt: number): number | null {
    const seconds = this.scheduleSeconds[attempt - 1];
    return seconds === undefined ? null : seconds * 1000;
  }

  /** The guards of an attempt outcome, once `attemptsMade` attempts (including it) were made. */
  attemptGuards(attemptsMade: number, maxAttempts: number = this.maxAttempts): Record<string, boolean> {
    const remaining = attemptsMade < maxAttempts;
    return { [ATTEMPTS_REMAINING]: remaining, [ATTEMPTS_EXHAUSTED]: !remaining };
  }

  private allowedEvents(from: DeliveryStatus): string {
    const events = [...new Set(this.machine.transitions.filter((t) => t.from === from).map((t) => t.event))];
    return events.length === 0 ? 'it is terminal' : `it allows ${events.join(', ')}`;
  }
}
