// Emits generated/machines.ts (typed transition tables the mock executes and conformance checks
// against) and generated/docs/machines.md (a Mermaid state diagram per machine, each transition
// labelled with its actor and the webhook it emits). Values are written as JSON, never spliced
// as source text.
import type { MachineModel, TransitionModel } from '../machines.js';
import { banner, camelCase, pascalCase, type GeneratedFile } from './file.js';

const source = 'contracts/machines/*.yaml';

export function emitMachines(machines: MachineModel[]): GeneratedFile[] {
  return [
    { path: 'machines.ts', contents: machinesModule(machines) },
    { path: 'docs/machines.md', contents: machinesDoc(machines) },
  ];
}

function machinesModule(machines: MachineModel[]): string {
  const blocks = machines.map((machine) => {
    const type = pascalCase(machine.name);
    const states = machine.states.map((s) => JSON.stringify(s.name)).join(' | ');
    const events = [...new Set(machine.transitions.map((t) => t.event))].map((e) => JSON.stringify(e)).join(' | ');
    const data = {
      name: machine.name,
      title: machine.title,
      initial: machine.initial,
      terminal: machine.terminal,
      states: machine.states.map((s) => s.name),
      descriptions: Object.fromEntries(machine.states.map((s) => [s.name, s.description])),
      timers: machine.timers,
      limits: machine.limits,
      guards: machine.guards,
      transitions: machine.transitions,
      createdEmits: machine.createdEmits,
      sideEvents: machine.sideEvents,
    };
    return [
      `/** ${machine.title}: the states of contracts/machines/${machine.name}.yaml. */`,
      `export type ${type}State = ${states};`,
      `export type ${type}Event = ${events};`,
      `export const ${camelCase(machine.name)}Machine: Machine<${type}State, ${type}Event> = ${JSON.stringify(data, null, 2)};`,
    ].join('\n');
  });
  const registry = machines.map((m) => `  ${JSON.stringify(m.name)}: ${camelCase(m.name)}Machine,`).join('\n');
  return `${banner(source)}

export type Actor = 'client' | 'system' | 'operator';

export interface Transition<S extends string, E extends string> {
  readonly from: S;
  readonly event: E;
  readonly to: S;
  readonly actor: Actor;
  /** operationIds that fire the event (client events only). */
  readonly via: readonly string[];
  readonly guard: string | null;
  readonly timer: string | null;
  /** Webhook event type emitted by the transition, if any. */
  readonly emits: string | null;
}

export interface Machine<S extends string, E extends string> {
  readonly name: string;
  readonly title: string;
  readonly initial: S;
  readonly terminal: readonly S[];
  readonly states: readonly S[];
  /** One line per state, from the machine file. */
  readonly descriptions: Readonly<Record<S, string>>;
  readonly timers: Readonly<Record<string, { readonly seconds?: number; readonly scheduleSeconds?: readonly number[] }>>;
  /** Counts a guard compares with (the failed deliveries that disable a webhook endpoint). */
  readonly limits: Readonly<Record<string, { readonly count: number }>>;
  readonly guards: Readonly<Record<string, string>>;
  readonly transitions: readonly Transition<S, E>[];
  readonly createdEmits: string | null;
  /** Webhook events emitted without a change of state (side_events), e.g. deposit.swept. */
  readonly sideEvents: readonly { readonly type: string; readonly description: string }[];
}

${blocks.join('\n\n')}

export const machines = {
${registry}
} as const;
`;
}

function machinesDoc(machines: MachineModel[]): string {
  const sections = machines.map((machine) => {
    const lines = machine.transitions.map((t) => `  ${t.from} --> ${t.to}: ${transitionLabel(t)}`);
    return [
      `## ${machine.title} (\`${machine.source}\`)`,
      '',
      machine.description,
      '',
      '```mermaid',
      'stateDiagram-v2',
      `  [*] --> ${machine.initial}`,
      ...lines,
      ...machine.terminal.map((s) => `  ${s} --> [*]`),
      '```',
    ].join('\n');
  });
  const legend = 'Each transition reads `event [guard] after timer / actor`, then `→ webhook` when it emits one.';
  return `${banner(source, 'md')}\n\n# State machines\n\n${legend}\n\n${sections.join('\n\n')}\n`;
}

/** What fires the transition, who fires it, and the webhook event it emits (Mermaid takes the rest of the line). */
function transitionLabel(t: TransitionModel): string {
  const trigger = [t.event, t.guard ? `[${t.guard}]` : '', t.timer ? `after ${t.timer}` : ''].filter(Boolean).join(' ');
  return `${trigger} / ${t.actor}${t.emits === null ? '' : ` → ${t.emits}`}`;
}
