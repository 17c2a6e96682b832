// Reads contracts/machines/*.yaml into typed machine models for the emitters.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { ContractError } from './load.js';
import { isObject } from './model.js';

export type Actor = 'client' | 'system' | 'operator';

export interface TransitionModel {
  from: string;
  event: string;
  to: string;
  actor: Actor;
  /** operationIds that fire the event (client events only). */
  via: string[];
  guard: string | null;
  timer: string | null;
  emits: string | null;
}

export interface TimerModel {
  seconds?: number;
  scheduleSeconds?: number[];
}

/** A count a guard compares with (the failed deliveries that disable a webhook endpoint). */
export interface LimitModel {
  count: number;
}

export interface MachineModel {
  name: string;
  source: string;
  title: string;
  description: string;
  initial: string;
  terminal: string[];
  states: { name: string; description: string }[];
  timers: Record<string, TimerModel>;
  limits: Record<string, LimitModel>;
  guards: Record<string, string>;
  transitions: TransitionModel[];
  /** Webhook event emitted when the resource is created (not a transition), if any. */
  createdEmits: string | null;
  /** Webhook events the resource emits without a change of state (`side_events`). */
  sideEvents: { type: string; description: string }[];
}

export function loadMachines(dir: string, repoRoot: string): MachineModel[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((file) => readMachine(join(dir, file), relative(repoRoot, join(dir, file))));
}

function readMachine(path: string, source: string): MachineModel {
  const raw: unknown = parse(readFileSync(path, 'utf8'));
  if (!isObject(raw)) throw new ContractError(source, '', 'a machine file must be a YAML mapping');
  const text = (key: string): string => {
    const value = raw[key];
    if (typeof value !== 'string') throw new ContractError(source, `/${key}`, 'must be a string');
    return value;
  };
  const states = isObject(raw.states) ? raw.states : {};
  const timers = isObject(raw.timers) ? raw.timers : {};
  const limits = isObject(raw.limits) ? raw.limits : {};
  const guards = isObject(raw.guards) ? raw.guards : {};
  const transitions = Array.isArray(raw.transitions) ? raw.transitions : [];
  return {
    name: text('machine'),
    source,
    title: text('title'),
    description: text('description').trim(),
    initial: text('initial'),
    terminal: Array.isArray(raw.terminal) ? raw.terminal.map(String) : [],
    states: Object.entries(states).map(([name, state]) => ({
      name,
      description: isObject(state) && typeof state.description === 'string' ? state.description : '',
    })),
    timers: Object.fromEntries(Object.entries(timers).map(([name, timer]) => [name, timerModel(timer)])),
    limits: Object.fromEntries(Object.entries(limits).map(([name, limit]) => [name, limitModel(limit, source, `/limits/${name}`)])),
    guards: Object.fromEntries(Object.entries(guards).map(([name, meaning]) => [name, String(meaning)])),
    transitions: transitions.map((t, index) => transitionModel(t, source, `/transitions/${index}`)),
    createdEmits: typeof raw.created_emits === 'string' ? raw.created_emits : null,
    sideEvents: (Array.isArray(raw.side_events) ? raw.side_events : []).map((side, index) => {
      if (!isObject(side) || typeof side.type !== 'string') throw new ContractError(source, `/side_events/${index}`, 'a side event needs a type');
      return { type: side.type, description: typeof side.description === 'string' ? side.description : '' };
    }),
  };
}

function timerModel(raw: unknown): TimerModel {
  if (!isObject(raw)) return {};
  return {
    ...(typeof raw.seconds === 'number' ? { seconds: raw.seconds } : {}),
    ...(Array.isArray(raw.schedule_seconds) ? { scheduleSeconds: raw.schedule_seconds.map(Number) } : {}),
  };
}

function limitModel(raw: unknown, source: string, pointer: string): LimitModel {
  const count = isObject(raw) ? raw.count : undefined;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) throw new ContractError(source, `${pointer}/count`, 'must be a whole number of at least 1');
  return { count };
}

function transitionModel(raw: unknown, source: string, pointer: string): TransitionModel {
  if (!isObject(raw)) throw new ContractError(source, pointer, 'a transition must be a mapping');
  const field = (key: string): string | null => (typeof raw[key] === 'string' ? (raw[key] as string) : null);
  const actor = field('actor');
  if (actor !== 'client' && actor !== 'system' && actor !== 'operator') {
    throw new ContractError(source, `${pointer}/actor`, 'must be client, system or operator');
  }
  const from = field('from');
  const event = field('event');
  const to = field('to');
  if (from === null || event === null || to === null) {
    throw new ContractError(source, pointer, 'from, event and to are required');
  }
  return {
    from,
    event,
    to,
    actor,
    via: Array.isArray(raw.via) ? raw.via.map(String) : [],
    guard: field('guard'),
    timer: field('timer'),
    emits: field('emits'),
  };
}
