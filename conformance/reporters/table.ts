// The human-readable report: one line per result (operation, check, result, reason), failures
// last so they stay on screen, then the totals. Every cell is printed with its control
// characters escaped: a reason quotes what the server sent.
import type { Report } from '../report.js';
import { escapeControls } from './terminal-text.js';

const order = { pass: 0, skip: 1, fail: 2 } as const;
const maxReason = 160;

export function renderTable(report: Report): string {
  const rows = [...report.results]
    .sort((a, b) => order[a.outcome] - order[b.outcome])
    .map((row) => ({ operation: escapeControls(row.operation), check: escapeControls(row.check), outcome: row.outcome, reason: shorten(row.reason) }));
  const header = { operation: 'operation', check: 'check' };
  const widths = {
    operation: Math.max(...[header, ...rows].map((row) => row.operation.length)),
    check: Math.max(...[header, ...rows].map((row) => row.check.length)),
  };
  const line = (operation: string, check: string, result: string, reason: string): string =>
    `${operation.padEnd(widths.operation)}  ${check.padEnd(widths.check)}  ${result.padEnd(6)}  ${reason}`.trimEnd();
  const lines = [line('operation', 'check', 'result', 'reason'), line('-'.repeat(widths.operation), '-'.repeat(widths.check), '------', '------')];
  for (const row of rows) lines.push(line(row.operation, row.check, row.outcome.toUpperCase(), row.reason));
  const { pass, fail, skip } = report.summary;
  lines.push('', `conformance of ${escapeControls(report.baseUrl)}: ${pass} passed, ${fail} failed, ${skip} skipped (${(report.durationMs / 1000).toFixed(1)} s)`);
  return `${lines.join('\n')}\n`;
}

/** On one line (whitespace runs become a space), escaped, then cut to maxReason characters. */
function shorten(reason: string): string {
  const flat = escapeControls(reason.replace(/\s+/g, ' '));
  return flat.length > maxReason ? `${flat.slice(0, maxReason - 1)}…` : flat;
}
