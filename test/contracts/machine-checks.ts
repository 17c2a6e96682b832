// Checks for contracts/machines/*.yaml: plain functions that return a list of problems
// (an empty list means the machine passes). The test file feeds them the real machines and
// one broken machine, so every check is shown to be able to fail.

export const ACTORS: readonly string[] = ['client', 'system', 'operator'];

/** Top-level keys every machine file has, in this order (contracts/README.md, MACHINES.md). */
export const REQUIRED_KEYS: readonly string[] = [
  'machine',
  'title',
  'description',
  'initial',
  'terminal',
  'states',
  'timers',
  'guards',
  'transitions',
];

/** Keys every transition has; null is written explicitly where there is none. */
export const TRANSITION_KEYS: readonly string[] = ['from', 'event', 'to', 'actor', 'guard', 'timer', 'emits'];

export interface StateDef {
  description: string;
  seed: boolean;
}

export interface TimerDef {
  seconds: number | null;
  schedule_seconds: number[] | null;
  assumption: string | null;
}

/** A count a guard compares with (`limits`, optional): a whole number, marked as ours. */
export interface LimitDef {
  count: number | null;
  assumption: string | null;
}

export interface Transition {
  from: string;
  event: string;
  to: string;
  actor: string;
  via: string[] | null; // null when the file has no `via`
  guard: string | null;
  timer: string | null;
  emits: string | null;
  seed: boolean;
  note: string | null;
}

export interface SideEvent {
  type: string;
  description: string;
}

export interface Machine {
  machine: string;
  title: string;
  description: string;
  assumptions: string[]; // x-assumption and x-assumptions of the machine
  initial: string;
  terminal: string[];
  states: Map<string, StateDef>;
  timers: Map<string, TimerDef>;
  limits: Map<string, LimitDef>;
  guards: Map<string, string>;
  transitions: Transition[];
  createdEmits: string | null;
  sideEvents: SideEvent[];
}

// ---------------------------------------------------------------------------------------------
// Reading a parsed YAML document into a Machine, collecting shape problems on the way.

type Dict = Record<string, unknown>;

export function isDict(value: unknown): value is Dict {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item: unknown) => typeof item === 'string');
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Reads one machine document; `name` is the file name without `.yaml`. */
export function readMachine(doc: unknown, name: string): { machine: Machine; problems: string[] } {
  const problems: string[] = [];
  const root: Dict = isDict(doc) ? doc : {};
  if (!isDict(doc)) problems.push('the document is not a mapping');

  // Required keys, present and in order.
  const keys: string[] = Object.keys(root);
  for (const key of REQUIRED_KEYS) {
    if (!(key in root)) problems.push(`missing top-level key "${key}"`);
  }
  const presentInOrder: string[] = keys.filter((key: string) => REQUIRED_KEYS.includes(key));
  const expectedOrder: string[] = REQUIRED_KEYS.filter((key: string) => key in root);
  if (presentInOrder.join(',') !== expectedOrder.join(',')) {
    problems.push(`top-level keys out of order: ${presentInOrder.join(', ')}`);
  }
  for (const key of ['machine', 'title', 'description', 'initial']) {
    if (key in root && typeof root[key] !== 'string') problems.push(`"${key}" is not a string`);
  }
  if (root['machine'] !== name) problems.push(`"machine" is ${String(root['machine'])}, the file is ${name}.yaml`);

  const assumptions: string[] = [];
  if (typeof root['x-assumption'] === 'string') assumptions.push(root['x-assumption']);
  if (isStringList(root['x-assumptions'])) assumptions.push(...root['x-assumptions']);
  else if ('x-assumptions' in root) problems.push('"x-assumptions" is not a list of strings');

  if (!isStringList(root['terminal'])) problems.push('"terminal" is not a list of state names');

  const states: Map<string, StateDef> = new Map();
  if (isDict(root['states'])) {
    for (const [stateName, def] of Object.entries(root['states'])) {
      const description: string | null = isDict(def) ? stringOrNull(def['description']) : null;
      if (description === null) problems.push(`state ${stateName} has no description`);
      states.set(stateName, { description: description ?? '', seed: isDict(def) && def['seed'] === true });
    }
  } else {
    problems.push('"states" is not a mapping');
  }

  const timers: Map<string, TimerDef> = new Map();
  if (isDict(root['timers'])) {
    for (const [timerName, def] of Object.entries(root['timers'])) {
      const body: Dict = isDict(def) ? def : {};
      const seconds: number | null = typeof body['seconds'] === 'number' ? body['seconds'] : null;
      const schedule: unknown = body['schedule_seconds'];
      const scheduleSeconds: number[] | null =
        Array.isArray(schedule) && schedule.every((n: unknown) => typeof n === 'number') ? (schedule as number[]) : null;
      if ((seconds === null) === (scheduleSeconds === null)) {
        problems.push(`timer ${timerName} needs exactly one of seconds or schedule_seconds`);
      }
      const assumption: string | null = stringOrNull(body['x-assumption']);
      if (assumption === null) problems.push(`timer ${timerName} has no x-assumption`);
      timers.set(timerName, { seconds, schedule_seconds: scheduleSeconds, assumption });
    }
  } else {
    problems.push('"timers" is not a mapping (write {} when there are none)');
  }

  // `limits` is optional: counts a guard compares with, each a whole number marked as ours.
  const limits: Map<string, LimitDef> = new Map();
  if (isDict(root['limits'])) {
    for (const [limitName, def] of Object.entries(root['limits'])) {
      const body: Dict = isDict(def) ? def : {};
      const count: number | null = Number.isInteger(body['count']) && (body['count'] as number) >= 1 ? (body['count'] as number) : null;
      if (count === null) problems.push(`limit ${limitName} needs a count, a whole number of at least 1`);
      const assumption: string | null = stringOrNull(body['x-assumption']);
      if (assumption === null) problems.push(`limit ${limitName} has no x-assumption`);
      limits.set(limitName, { count, assumption });
    }
  } else if ('limits' in root) {
    problems.push('"limits" is not a mapping');
  }

  const guards: Map<string, string> = new Map();
  if (isDict(root['guards'])) {
    for (const [guardName, meaning] of Object.entries(root['guards'])) {
      if (typeof meaning !== 'string') problems.push(`guard ${guardName} has no meaning`);
      guards.set(guardName, typeof meaning === 'string' ? meaning : '');
    }
  } else {
    problems.push('"guards" is not a mapping (write {} when there are none)');
  }

  const transitions: Transition[] = [];
  const rawTransitions: unknown = root['transitions'];
  if (Array.isArray(rawTransitions)) {
    rawTransitions.forEach((raw: unknown, index: number) => {
      const t: Dict = isDict(raw) ? raw : {};
      const label: string = `transition #${index} (${String(t['from'])} --${String(t['event'])}-->)`;
      for (const key of TRANSITION_KEYS) {
        if (!(key in t)) problems.push(`${label} has no "${key}" (write null where there is none)`);
      }
      for (const key of ['from', 'event', 'to', 'actor']) {
        if (typeof t[key] !== 'string') problems.push(`${label}: "${key}" is not a string`);
      }
      for (const key of ['guard', 'timer', 'emits']) {
        if (key in t && t[key] !== null && typeof t[key] !== 'string') {
          problems.push(`${label}: "${key}" is neither null nor a name`);
        }
      }
      if ('via' in t && !isStringList(t['via'])) problems.push(`${label}: "via" is not a list of operationIds`);
      transitions.push({
        from: String(t['from']),
        event: String(t['event']),
        to: String(t['to']),
        actor: String(t['actor']),
        via: isStringList(t['via']) ? t['via'] : null,
        guard: stringOrNull(t['guard']),
        timer: stringOrNull(t['timer']),
        emits: stringOrNull(t['emits']),
        seed: t['seed'] === true,
        note: stringOrNull(t['note']) ?? stringOrNull(t['description']),
      });
    });
  } else {
    problems.push('"transitions" is not a list');
  }

  const sideEvents: SideEvent[] = [];
  if (Array.isArray(root['side_events'])) {
    for (const raw of root['side_events'] as unknown[]) {
      const type: string | null = isDict(raw) ? stringOrNull(raw['type']) : null;
      const description: string | null = isDict(raw) ? stringOrNull(raw['description']) : null;
      if (type === null || description === null) problems.push('a side event lacks type or description');
      sideEvents.push({ type: type ?? '', description: description ?? '' });
    }
  }

  const machine: Machine = {
    machine: String(root['machine']),
    title: String(root['title']),
    description: String(root['description']),
    assumptions,
    initial: String(root['initial']),
    terminal: isStringList(root['terminal']) ? root['terminal'] : [],
    states,
    timers,
    limits,
    guards,
    transitions,
    createdEmits: stringOrNull(root['created_emits']),
    sideEvents,
  };
  return { machine, problems };
}

// ---------------------------------------------------------------------------------------------
// Graph checks.

function arrow(t: Transition): string {
  return `${t.from} --${t.event}${t.guard === null ? '' : `[${t.guard}]`}--> ${t.to}`;
}

/** States reachable from `start` (including it) along transitions. */
export function reachableFrom(machine: Machine, start: string): Set<string> {
  const seen: Set<string> = new Set([start]);
  const queue: string[] = [start];
  while (queue.length > 0) {
    const state: string = queue.shift() as string;
    for (const t of machine.transitions) {
      if (t.from === state && !seen.has(t.to)) {
        seen.add(t.to);
        queue.push(t.to);
      }
    }
  }
  return seen;
}

/** initial, terminal and every transition's ends name declared states. */
export function checkDeclarations(machine: Machine): string[] {
  const problems: string[] = [];
  if (!machine.states.has(machine.initial)) problems.push(`initial ${machine.initial} is not a declared state`);
  for (const state of machine.terminal) {
    if (!machine.states.has(state)) problems.push(`terminal ${state} is not a declared state`);
  }
  for (const t of machine.transitions) {
    if (!machine.states.has(t.from)) problems.push(`${arrow(t)}: from ${t.from} is not a declared state`);
    if (!machine.states.has(t.to)) problems.push(`${arrow(t)}: to ${t.to} is not a declared state`);
  }
  return problems;
}

/** Actors, via, guards and timers are consistent, and every declared guard and timer is used. */
export function checkReferences(machine: Machine): string[] {
  const problems: string[] = [];
  const usedGuards: Set<string> = new Set();
  const usedTimers: Set<string> = new Set();
  for (const t of machine.transitions) {
    if (!ACTORS.includes(t.actor)) problems.push(`${arrow(t)}: actor ${t.actor} is not one of ${ACTORS.join(', ')}`);
    const hasVia: boolean = t.via !== null && t.via.length > 0;
    if (t.actor === 'client' && !hasVia) problems.push(`${arrow(t)}: a client transition needs a non-empty via`);
    if (t.actor !== 'client' && t.via !== null) problems.push(`${arrow(t)}: only client transitions have via`);
    if (t.guard !== null) {
      usedGuards.add(t.guard);
      if (!machine.guards.has(t.guard)) problems.push(`${arrow(t)}: guard ${t.guard} is not declared`);
    }
    if (t.timer !== null) {
      usedTimers.add(t.timer);
      if (!machine.timers.has(t.timer)) problems.push(`${arrow(t)}: timer ${t.timer} is not declared`);
    }
  }
  // A timer or a limit is also used when a guard that a transition uses measures it (deposit's
  // within_late_window reads late_window): the guard's meaning names it.
  const usedLimits: Set<string> = new Set();
  for (const guard of usedGuards) {
    const meaning: string = machine.guards.get(guard) ?? '';
    for (const timer of machine.timers.keys()) {
      if (new RegExp(`\\b${timer}\\b`).test(meaning)) usedTimers.add(timer);
    }
    for (const limit of machine.limits.keys()) {
      if (new RegExp(`\\b${limit}\\b`).test(meaning)) usedLimits.add(limit);
    }
  }
  for (const guard of machine.guards.keys()) {
    if (!usedGuards.has(guard)) problems.push(`guard ${guard} is declared but no transition uses it`);
  }
  for (const timer of machine.timers.keys()) {
    if (!usedTimers.has(timer)) problems.push(`timer ${timer} is declared but no transition uses it`);
  }
  for (const limit of machine.limits.keys()) {
    if (!usedLimits.has(limit)) problems.push(`limit ${limit} is declared but no guard a transition uses names it`);
  }
  return problems;
}

/** Every state is reachable from initial. */
export function checkReachability(machine: Machine): string[] {
  const reachable: Set<string> = reachableFrom(machine, machine.initial);
  return [...machine.states.keys()]
    .filter((state: string) => !reachable.has(state))
    .map((state: string) => `state ${state} is not reachable from ${machine.initial}`);
}

/**
 * Terminal states have no outgoing transitions, states without outgoing transitions are
 * terminal, and every non-terminal state can reach a terminal state. A machine without terminal
 * states (a resource that lives as long as its owner: a webhook endpoint, a static address) must
 * instead let every state reach every other, so no state is a dead end.
 */
export function checkTermination(machine: Machine): string[] {
  const problems: string[] = [];
  if (machine.terminal.length === 0) {
    for (const state of machine.states.keys()) {
      const reachable: Set<string> = reachableFrom(machine, state);
      const missed: string[] = [...machine.states.keys()].filter((other: string) => other !== state && !reachable.has(other));
      if (missed.length > 0) problems.push(`state ${state} cannot reach ${missed.join(', ')} (a machine without terminal states must be a cycle)`);
    }
    return problems;
  }
  const terminal: Set<string> = new Set(machine.terminal);
  for (const state of machine.states.keys()) {
    const outgoing: Transition[] = machine.transitions.filter((t: Transition) => t.from === state);
    if (terminal.has(state)) {
      for (const t of outgoing) problems.push(`terminal state ${state} has an outgoing transition ${arrow(t)}`);
      continue;
    }
    if (outgoing.length === 0) problems.push(`state ${state} has no outgoing transition but is not terminal`);
    const reachable: Set<string> = reachableFrom(machine, state);
    if (![...reachable].some((s: string) => terminal.has(s))) {
      problems.push(`state ${state} cannot reach any terminal state`);
    }
  }
  return problems;
}

/** No two transitions share (from, event, guard). */
export function checkDeterminism(machine: Machine): string[] {
  const problems: string[] = [];
  const seen: Map<string, Transition> = new Map();
  for (const t of machine.transitions) {
    const key: string = `${t.from}|${t.event}|${t.guard ?? ''}`;
    const earlier: Transition | undefined = seen.get(key);
    if (earlier !== undefined) problems.push(`${arrow(t)} and ${arrow(earlier)} share from, event and guard`);
    else seen.set(key, t);
  }
  return problems;
}

/** Every graph check at once. */
export function checkMachine(machine: Machine): string[] {
  return [
    ...checkDeclarations(machine),
    ...checkReferences(machine),
    ...checkReachability(machine),
    ...checkTermination(machine),
    ...checkDeterminism(machine),
  ];
}

/** Every webhook event type the machine emits: transitions, created_emits and side events. */
export function emittedEventTypes(machine: Machine): string[] {
  const types: Set<string> = new Set();
  for (const t of machine.transitions) if (t.emits !== null) types.add(t.emits);
  if (machine.createdEmits !== null) types.add(machine.createdEmits);
  for (const side of machine.sideEvents) types.add(side.type);
  return [...types].sort();
}

// ---------------------------------------------------------------------------------------------
// What the tests need from an OpenAPI contract (read as plain YAML).

const METHODS: readonly string[] = ['get', 'post', 'put', 'patch', 'delete'];

export function operationIds(contract: Dict): Set<string> {
  const ids: Set<string> = new Set();
  const paths: unknown = contract['paths'];
  if (!isDict(paths)) return ids;
  for (const item of Object.values(paths)) {
    if (!isDict(item)) continue;
    for (const method of METHODS) {
      const operation: unknown = item[method];
      if (isDict(operation) && typeof operation['operationId'] === 'string') ids.add(operation['operationId']);
    }
  }
  return ids;
}

/** The keys of the contract's `webhooks` section: the event types it declares. */
export function webhookEventTypes(contract: Dict): Set<string> {
  const webhooks: unknown = contract['webhooks'];
  return new Set(isDict(webhooks) ? Object.keys(webhooks) : []);
}

export interface MachineSchema {
  schema: string;
  machine: string;
  enumValues: unknown[] | null;
}

/** Every components.schemas entry that carries `marker` (x-machine: states; x-machine-events: events). */
export function machineSchemas(contract: Dict, marker: 'x-machine' | 'x-machine-events' = 'x-machine'): MachineSchema[] {
  const components: unknown = contract['components'];
  const schemas: unknown = isDict(components) ? components['schemas'] : undefined;
  if (!isDict(schemas)) return [];
  const found: MachineSchema[] = [];
  for (const [schema, def] of Object.entries(schemas)) {
    if (!isDict(def) || typeof def[marker] !== 'string') continue;
    found.push({ schema, machine: def[marker] as string, enumValues: Array.isArray(def['enum']) ? (def['enum'] as unknown[]) : null });
  }
  return found;
}
