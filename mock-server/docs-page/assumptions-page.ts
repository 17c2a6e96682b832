// The assumptions list: every `x-assumption` of contracts/, collected by the generator's own
// function, grouped by file.
import { collectAssumptions } from '../../generator/assumptions.js';
import { escapeHtml, page } from './html.js';

export function assumptionsPage(base: string, contractsDir: string): string {
  const assumptions = collectAssumptions(contractsDir);
  const files = [...new Set(assumptions.map((a) => a.file))];
  const sections = files.map((file) => {
    const items = assumptions
      .filter((a) => a.file === file)
      .map((a) => `<li><code>${escapeHtml(a.pointer || '/')}</code>: ${escapeHtml(a.text)}</li>`);
    return `<section><h2><code>contracts/${escapeHtml(file)}</code> (${items.length})</h2><ul>\n${items.join('\n')}\n</ul></section>`;
  });
  const intro = `<header><h1>Assumptions</h1><p>${assumptions.length} places where the API description is silent and the contracts decide (<code>x-assumption</code>).</p></header>`;
  return page(base, 'Assumptions', `${intro}\n${sections.join('\n')}`);
}
