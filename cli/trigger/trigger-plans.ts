// What `exchange-api-kit trigger` can make a mock emit, read from the contracts and machines, not
// restated: every webhook event type of the v3 and v1 contracts (their generated webhook
// validators), each with the shortest run of the machine that emits it (generated/machines.ts:
// the transitions' `emits`, `created_emits`, `side_events`), plus `<machine>.<state>` for driving
// a resource to any state (`order.completed`; the initial state, `order.awaiting_payment`, is a
// resource just created, offered when creating one emits an event). An event type no machine emits is the family's
// test webhook (sendTestWebhook / sendSiteTestWebhook). A type none of these covers is listed as
// not triggerable, so a new event type without a way to cause it shows up at once.
import { webhookValidators as depositV1WebhookValidators } from '../../generated/deposit-v1/validators.js';
import { webhookValidators as exchangeV3WebhookValidators } from '../../generated/exchange-v3/validators.js';
import { depositMachine, orderMachine, type Machine, type Transition } from '../../generated/machines.js';

export type Family = 'v3' | 'v1';
type AnyMachine = Machine<string, string>;
export type AnyTransition = Transition<string, string>;

/** The machines a trigger can drive, with the API family their resources and webhooks belong to. */
export const drivenMachines: readonly { machine: AnyMachine; family: Family }[] = [
  { machine: orderMachine, family: 'v3' },
  { machine: depositMachine, family: 'v1' },
];

export type TriggerPlan =
  | {
      kind: 'machine';
      name: string;
      family: Family;
      machine: AnyMachine;
      /** The transitions to fire after creating the resource, in order. */
      path: AnyTransition[];
      /** The webhook event type whose arrival ends the trigger. */
      emits: string;
    }
  | { kind: 'side-event'; name: string; family: Family; machine: AnyMachine; emits: string; description: string }
  | { kind: 'test-webhook'; name: string; family: Family; emits: string }
  | { kind: 'none'; name: string; family: Family; reason: string };

/** Every webhook event type the contracts declare, by family, in contract order. */
export const contractEventTypes: Readonly<Record<Family, readonly string[]>> = {
  v3: Object.keys(exchangeV3WebhookValidators),
  v1: Object.keys(depositV1WebhookValidators),
};

export function triggerPlans(): TriggerPlan[] {
  const plans: TriggerPlan[] = [];
  for (const family of ['v3', 'v1'] as const) {
    for (const type of contractEventTypes[family]) plans.push(planForEventType(family, type));
  }
  const taken = new Set(plans.map((plan) => plan.name));
  for (const { machine, family } of drivenMachines) {
    for (const state of machine.states) {
      const name = `${machine.name}.${state}`;
      // No transition leads to the initial state: creating the resource leaves it there.
      const path = state === machine.initial ? [] : shortestPath(machine, (transition) => transition.to === state);
      if (taken.has(name) || path === undefined) continue;
      const emits = path.length === 0 ? machine.createdEmits : [...path].reverse().find((transition) => transition.emits !== null)?.emits;
      if (emits === undefined || emits === null) continue;
      plans.push({ kind: 'machine', name, family, machine, path, emits });
    }
  }
  return plans;
}

function planForEventType(family: Family, type: string): TriggerPlan {
  for (const driven of drivenMachines.filter((candidate) => candidate.family === family)) {
    const { machine } = driven;
    if (machine.createdEmits === type) return { kind: 'machine', name: type, family, machine, path: [], emits: type };
    const path = shortestPath(machine, (transition) => transition.emits === type);
    if (path !== undefined) return { kind: 'machine', name: type, family, machine, path, emits: type };
    const side = machine.sideEvents.find((event) => event.type === type);
    if (side !== undefined) return { kind: 'side-event', name: type, family, machine, emits: type, description: side.description };
  }
  const emittedElsewhere = drivenMachines.some(({ machine }) => machine.transitions.some((transition) => transition.emits === type));
  if (emittedElsewhere) return { kind: 'none', name: type, family, reason: 'emitted by a machine of the other family' };
  return { kind: 'test-webhook', name: type, family, emits: type };
}

/** The fewest transitions from the initial state through one that `ends` accepts (breadth first). */
export function shortestPath(machine: AnyMachine, ends: (transition: AnyTransition) => boolean): AnyTransition[] | undefined {
  const paths = new Map<string, AnyTransition[]>([[machine.initial, []]]);
  const queue = [machine.initial];
  while (queue.length > 0) {
    const state = queue.shift()!;
    for (const transition of machine.transitions.filter((candidate) => candidate.from === state)) {
      if (ends(transition)) return [...paths.get(state)!, transition];
      if (paths.has(transition.to)) continue;
      paths.set(transition.to, [...paths.get(state)!, transition]);
      queue.push(transition.to);
    }
  }
  return undefined;
}

/** One line of `trigger --list`. */
export function describePlan(plan: TriggerPlan): string {
  switch (plan.kind) {
    case 'machine': {
      const steps = plan.path.map((t) => `${t.event}${t.guard === null ? '' : `[${t.guard}]`}`);
      const run = steps.length === 0 ? 'created' : `created, then ${steps.join(' → ')}`;
      return `${plan.family}  a new ${plan.machine.name} ${run}${plan.name === plan.emits ? '' : ` (emits ${plan.emits})`}`;
    }
    case 'side-event':
      return `${plan.family}  side event of a ${plan.machine.name}: ${plan.description}`;
    case 'test-webhook':
      return `${plan.family}  the ${plan.family} test webhook`;
    case 'none':
      return `${plan.family}  not triggerable: ${plan.reason}`;
  }
}
