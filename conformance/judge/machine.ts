// Observed status sequences against a state machine of contracts/machines (generated/machines.ts):
// a resource created in the machine's initial state (or one the client's own transitions reach
// from it: a complete identity verification is submitted at creation), and each status change
// one the machine allows. Observations may be sparse (a poll can miss steps), so a change is legal when the new
// status is reachable from the old one through the machine's transitions.
import type { Machine } from '../../generated/machines.js';

type AnyMachine = Machine<string, string>;

export function sequenceProblems(machine: AnyMachine, observed: readonly string[], createdHere: boolean): string[] {
  const problems: string[] = [];
  const unknown = observed.filter((status) => !machine.states.includes(status));
  if (unknown.length > 0) return [`status ${unknown.join(', ')} is not a state of the ${machine.name} machine`];
  if (createdHere && observed[0] !== undefined && observed[0] !== machine.initial && !reachable(machine, machine.initial, 'client').has(observed[0])) {
    problems.push(`created in ${observed[0]}; the ${machine.name} machine starts in ${machine.initial}`);
  }
  for (let i = 1; i < observed.length; i++) {
    const from = observed[i - 1]!;
    const to = observed[i]!;
    if (from !== to && !reachable(machine, from).has(to)) problems.push(`${from} → ${to} is not a transition of the ${machine.name} machine`);
  }
  return problems;
}

/** The states reachable from `from` in one or more transitions (only `actor`'s, when given). */
function reachable(machine: AnyMachine, from: string, actor?: string): Set<string> {
  const seen = new Set<string>();
  const queue = [from];
  while (queue.length > 0) {
    const state = queue.shift()!;
    for (const transition of machine.transitions) {
      if (transition.from === state && !seen.has(transition.to) && (actor === undefined || transition.actor === actor)) {
        seen.add(transition.to);
        queue.push(transition.to);
      }
    }
  }
  return seen;
}

export type AnyTransition = AnyMachine['transitions'][number];

/** The shortest run of transitions from `from` to every state it reaches (the file's order breaks ties). */
export function shortestPaths(machine: AnyMachine, from: string): Map<string, AnyTransition[]> {
  const paths = new Map<string, AnyTransition[]>([[from, []]]);
  const queue = [from];
  while (queue.length > 0) {
    const state = queue.shift()!;
    for (const transition of machine.transitions) {
      if (transition.from !== state || paths.has(transition.to)) continue;
      paths.set(transition.to, [...paths.get(state)!, transition]);
      queue.push(transition.to);
    }
  }
  return paths;
}

/** The transitions leading from `from` to the terminal state farthest away (the longest of the shortest paths). */
export function longestRunToTerminal(machine: AnyMachine, from: string): AnyTransition[] {
  const paths = shortestPaths(machine, from);
  const terminal = machine.terminal.map((state) => paths.get(state) ?? []).sort((a, b) => b.length - a.length);
  return terminal[0] ?? [];
}

/** The observed statuses without repeats of the same status in a row. */
export function withoutRepeats(statuses: readonly (string | undefined)[]): string[] {
  const result: string[] = [];
  for (const status of statuses) if (status !== undefined && status !== result.at(-1)) result.push(status);
  return result;
}
