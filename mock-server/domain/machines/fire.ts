// Runs any generated machine (generated/machines.ts, from contracts/machines/*.yaml) as data:
// which transition an event takes from a state, which events a state allows, and the machine's
// own reason when it refuses. Domains keep their records; this decides their next state.
import type { Machine, Transition } from '../../../generated/machines.js';

/** How the caller's guards are treated: evaluated, or overridden (an operator forcing an event). */
export interface FireOptions {
  /** Guard name → whether it holds now; a transition with a guard that is not true is closed. */
  guards?: Readonly<Record<string, boolean>>;
  /** Take the transition whatever its guard says (control API overrides). */
  ignoreGuards?: boolean;
}

export type FireResult<S extends string, E extends string> =
  | { ok: true; transition: Transition<S, E> }
  | { ok: false; reason: string };

function isOpen<S extends string, E extends string>(transition: Transition<S, E>, options: FireOptions): boolean {
  return transition.guard === null || options.ignoreGuards === true || options.guards?.[transition.guard] === true;
}

/**
 * The transition `event` takes from `from`, or the machine's reason for refusing it: no such
 * transition from this state, or every candidate's guard is closed. When several are open
 * (forced guards), the first in file order wins: the machine files list the usual path first.
 */
export function tryFire<S extends string, E extends string>(
  machine: Machine<S, E>,
  from: S,
  event: E,
  options: FireOptions = {},
): FireResult<S, E> {
  const candidates = machine.transitions.filter((t) => t.from === from && t.event === event);
  const open = candidates.find((t) => isOpen(t, options));
  if (open !== undefined) return { ok: true, transition: open };
  if (candidates.length === 0) {
    const allowed = allowedEvents(machine, from, { ignoreGuards: true });
    const list = allowed.length === 0 ? `${from} is final` : `allowed: ${allowed.join(', ')}`;
    return { ok: false, reason: `${event} is not allowed from ${from} (${list})` };
  }
  const guards = candidates.map((t) => `${t.guard}: ${machine.guards[t.guard ?? ''] ?? ''}`.trim());
  return { ok: false, reason: `${event} from ${from} needs ${guards.join(' or ')}` };
}

/** The distinct events that can fire from `from` now, in the machine file's order. */
export function allowedEvents<S extends string, E extends string>(machine: Machine<S, E>, from: S, options: FireOptions = {}): E[] {
  const events = machine.transitions.filter((t) => t.from === from && isOpen(t, options)).map((t) => t.event);
  return [...new Set(events)];
}

export function isTerminal<S extends string, E extends string>(machine: Machine<S, E>, state: S): boolean {
  return machine.terminal.includes(state);
}
