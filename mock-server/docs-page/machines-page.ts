// The state machines as HTML tables, read from generated/machines.ts (the same data the mock
// executes). Tables rather than diagrams: no Mermaid renderer is installed, and the page must
// work offline (the Mermaid sources are in generated/docs/machines.md).
import { machines, type Machine } from '../../generated/machines.js';
import { escapeHtml, page } from './html.js';

const code = (text: string | null) => (text === null ? '' : `<code>${escapeHtml(text)}</code>`);

function table(headings: string[], rows: string[][], rowClass: (index: number) => string = () => ''): string {
  const head = headings.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows.map((cells, index) => `<tr class="${rowClass(index)}">${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function machineSection(key: string, machine: Machine<string, string>): string {
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

export function machinesPage(base: string): string {
  const sections = Object.entries(machines).map(([key, machine]) => machineSection(key, machine as Machine<string, string>));
  return page(base, 'State machines', `<header><h1>State machines</h1><p>Every transition the mock executes, from <code>contracts/machines/</code>.</p></header>\n${sections.join('\n')}`);
}
