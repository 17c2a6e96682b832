// The state machines as diagrams and tables, read from generated/machines.ts (the same data the
// mock executes). The diagrams are Graphviz SVG rendered here, on the server, by @viz-js/viz
// (Graphviz compiled to WebAssembly), so the page needs no script and nothing from a CDN.
import { instance } from '@viz-js/viz';
import { machines, type Actor, type Machine } from '../../generated/machines.js';
import { escapeHtml, page } from './html.js';

const code = (text: string | null) => (text === null ? '' : `<code>${escapeHtml(text)}</code>`);

function table(headings: string[], rows: string[][], rowClass: (index: number) => string = () => ''): string {
  const head = headings.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows.map((cells, index) => `<tr class="${rowClass(index)}">${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** Edge colours by actor: who fires the transition shows at a glance (the legend under each diagram). */
const actorColours: Readonly<Record<Actor, string>> = { client: '#1f6feb', operator: '#9a3412', system: '#57606a' };

/**
 * DOT of a machine: initial state bold, final states with a double border, each edge labelled by
 * its event (and guard), who fires it and the webhook event it emits, and coloured by that actor.
 */
export function machineDot(machine: Machine<string, string>): string {
  const quote = (text: string) => JSON.stringify(text);
  const states = machine.states.map((state) => {
    const peripheries = machine.terminal.includes(state) ? ', peripheries=2' : '';
    const style = state === machine.initial ? 'rounded,bold' : 'rounded';
    return `  ${quote(state)} [shape=box, style=${quote(style)}${peripheries}];`;
  });
  const edges = machine.transitions.map((t) => {
    const lines = [t.guard === null ? t.event : `${t.event} [${t.guard}]`, `by ${t.actor}`, ...(t.emits === null ? [] : [`→ ${t.emits}`])];
    const colour = quote(actorColours[t.actor]);
    return `  ${quote(t.from)} -> ${quote(t.to)} [label=${quote(lines.join('\n'))}, color=${colour}, fontcolor=${colour}];`;
  });
  return `digraph ${quote(machine.name)} {\n  rankdir=LR; node [fontname="Helvetica", fontsize=11]; edge [fontname="Helvetica", fontsize=9];\n${states.join('\n')}\n${edges.join('\n')}\n}`;
}

const legend = Object.entries(actorColours)
  .map(([actor, colour]) => `<span style="color:${colour}">${actor}</span>`)
  .join(', ');

function machineSection(key: string, machine: Machine<string, string>, diagram: string): string {
  const states = machine.states.map((state) => [
    code(state),
    state === machine.initial ? 'initial' : machine.terminal.includes(state) ? 'terminal' : '',
    escapeHtml(machine.descriptions[state] ?? ''),
  ]);
  const stateClass = (index: number) => {
    const state = machine.states[index] ?? '';
    return state === machine.initial ? 'state-initial' : machine.terminal.includes(state) ? 'state-terminal' : '';
  };
  const transitions = machine.transitions.map((t) => {
    const timer = t.timer === null ? '' : `${code(t.timer)}${timerSeconds(machine, t.timer)}`;
    return [code(t.from), code(t.event), code(t.to), escapeHtml(t.actor), t.via.map(code).join(', '), code(t.guard), timer, code(t.emits)];
  });
  const guards = Object.entries(machine.guards).map(([name, text]) => `<li>${code(name)}: ${escapeHtml(text)}</li>`).join('\n');
  return `<section id="${escapeHtml(key)}">
  <h2>${escapeHtml(machine.title)} <small>${code(`contracts/machines/${key}.yaml`)}</small></h2>
  <figure class="machine-diagram">${diagram}<figcaption>Bold: initial state; double border: final state. Each arrow names its event, who fires it (${legend}) and the webhook it emits (→).</figcaption></figure>
  ${table(['state', '', 'meaning'], states, stateClass)}
  ${table(['from', 'event', 'to', 'actor', 'via', 'guard', 'timer', 'emits'], transitions)}
  ${guards === '' ? '' : `<h3>Guards</h3><ul>${guards}</ul>`}
  ${machine.createdEmits === null ? '' : `<p>Creation emits ${code(machine.createdEmits)}.</p>`}
</section>`;
}

function timerSeconds(machine: Machine<string, string>, timer: string): string {
  const spec = machine.timers[timer];
  if (spec?.seconds !== undefined) return ` (${spec.seconds} s)`;
  if (spec?.scheduleSeconds !== undefined) return ` (${spec.scheduleSeconds.join(', ')} s)`;
  return '';
}

export async function machinesPage(base: string): Promise<string> {
  const viz = await instance();
  const sections = Object.entries(machines).map(([key, machine]) => {
    const typed = machine as Machine<string, string>;
    // Inline in the page: without the XML prologue, and without namespace declarations, which
    // HTML does not need (the page names no address outside the mock).
    const svg = viz
      .renderString(machineDot(typed), { format: 'svg' })
      .replace(/^[\s\S]*?(?=<svg)/, '')
      .replace(/\s+xmlns(:xlink)?="[^"]*"/g, '');
    return machineSection(key, typed, svg);
  });
  return page(base, 'State machines', `<header><h1>State machines</h1><p>Every transition the mock executes, from <code>contracts/machines/</code>.</p></header>\n${sections.join('\n')}`);
}
