// Collects every assumption the contracts make (`x-assumption: <line>` and
// `x-assumptions: [<line>, ...]`) with where it stands, and renders the README's list of them.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  apiContracts, contractsDir, isObject, loadCatalogSchemas, pointerToken, readYaml, type Json,
} from './contracts.js';

export interface Assumption {
  file: string;
  pointer: string;
  text: string;
}

function collect(node: Json, file: string, pointer: string, into: Assumption[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => collect(item, file, `${pointer}/${index}`, into));
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    const here = `${pointer}/${pointerToken(key)}`;
    if (key === 'x-assumption') {
      into.push({ file, pointer, text: String(value) });
    } else if (key === 'x-assumptions' && Array.isArray(value)) {
      value.forEach((text, index) => into.push({ file, pointer: `${here}/${index}`, text: String(text) }));
    } else {
      collect(value, file, here, into);
    }
  }
}

/** Every assumption of contracts/, file by file in a stable order. */
export function collectAssumptions(): Assumption[] {
  const found: Assumption[] = [];
  for (const file of Object.values(apiContracts)) collect(readYaml(join(contractsDir, file)), file, '', found);
  for (const { file, schema } of loadCatalogSchemas()) collect(schema, `schemas/${file}`, '', found);
  const machines = readdirSync(join(contractsDir, 'machines')).filter((f) => f.endsWith('.yaml')).sort();
  for (const file of machines) collect(readYaml(join(contractsDir, 'machines', file)), `machines/${file}`, '', found);
  return found;
}

export const readmeMarkers = { start: '<!-- assumptions:start -->', end: '<!-- assumptions:end -->' };

/** The README section between the markers: one list per file, one line per assumption. */
export function renderAssumptions(assumptions: Assumption[]): string {
  const files = [...new Set(assumptions.map((a) => a.file))];
  const sections = files.map((file) => {
    const lines = assumptions
      .filter((a) => a.file === file)
      .map((a) => `- \`${a.pointer || '/'}\`: ${a.text}`);
    return [`#### \`contracts/${file}\` (${lines.length})`, '', ...lines].join('\n');
  });
  return [
    readmeMarkers.start,
    `${assumptions.length} assumptions, listed by \`test/contracts/assumptions.test.ts\` from the contracts' \`x-assumption\` marks (JSON pointers into each file).`,
    '',
    sections.join('\n\n'),
    readmeMarkers.end,
  ].join('\n');
}
