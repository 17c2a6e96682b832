// Collects every assumption the contracts make (`x-assumption: <line>` and
// `x-assumptions: [<line>, ...]`) with where it stands, and renders the list docs/contracts.md embeds.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { JsonValue as Json } from './load.js';
import { isObject, token as pointerToken } from './model.js';

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

/**
 * Every assumption of contracts/, file by file in a stable order: the OpenAPI contracts, the
 * catalog schemas, the platform contracts catalog, then the machines. Pointers are into the
 * source files, as written.
 */
export function collectAssumptions(contractsDir: string, contractFiles: readonly string[] = openApiFiles(contractsDir)): Assumption[] {
  const found: Assumption[] = [];
  const read = (relativePath: string): Json => parse(readFileSync(join(contractsDir, relativePath), 'utf8'), { maxAliasCount: -1 }) as Json;
  // Another copy of the contracts may lack the catalog schemas, the platform catalog or the machines.
  const filesIn = (dir: string, ending: string): string[] =>
    existsSync(join(contractsDir, dir)) ? readdirSync(join(contractsDir, dir)).filter((f) => f.endsWith(ending)).sort().map((f) => `${dir}/${f}`) : [];
  for (const file of contractFiles) collect(read(file), file, '', found);
  for (const file of filesIn('schemas', '.json')) collect(read(file), file, '', found);
  if (existsSync(join(contractsDir, 'platform-contracts.yaml'))) collect(read('platform-contracts.yaml'), 'platform-contracts.yaml', '', found);
  for (const file of filesIn('machines', '.yaml')) collect(read(file), file, '', found);
  return found;
}

/** The OpenAPI contracts of a folder, sorted. */
export function openApiFiles(contractsDir: string): string[] {
  return readdirSync(contractsDir).filter((f) => /\.openapi\.ya?ml$/.test(f)).sort();
}

/** The list of assumptions in Markdown: one list per file, one line per assumption. */
export function renderAssumptions(assumptions: Assumption[]): string {
  const files = [...new Set(assumptions.map((a) => a.file))];
  const sections = files.map((file) => {
    const lines = assumptions
      .filter((a) => a.file === file)
      .map((a) => `- \`${a.pointer || '/'}\`: ${a.text}`);
    return [`#### \`contracts/${file}\` (${lines.length})`, '', ...lines].join('\n');
  });
  return [
    `${assumptions.length} assumptions, collected by \`npm run generate\` from the contracts' \`x-assumption\` marks (JSON pointers into each file).`,
    '',
    sections.join('\n\n'),
  ].join('\n');
}
