// docs/command-line.md promises every serve option with its flag, environment variable and config
// key (the flag's name): its option table must have one row per option of cli/serve.ts, naming the
// option's environment variable, and no row for an option serve does not have.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpOption } from '../../cli/options.js';
import { serveOptions } from '../../cli/serve.js';
import { repoRoot } from '../support/contracts.js';

const doc = readFileSync(join(repoRoot, 'docs', 'command-line.md'), 'utf8');

/** The rows of the table under `| flag | env | default | meaning |`: flag name and env cell. */
function documentedRows(): { name: string; env: string }[] {
  const lines = doc.split('\n');
  const start = lines.findIndex((line) => /^\| flag \| env \| default \| meaning \|$/.test(line));
  expect(start).toBeGreaterThan(-1);
  const rows: { name: string; env: string }[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [flag = '', env = ''] = line.split('|').slice(1).map((cell) => cell.trim());
    const name = /^`--([a-z-]+)/.exec(flag)?.[1];
    if (name === undefined) throw new Error(`a row of the serve table names no flag: ${line}`);
    rows.push({ name, env: env.replace(/`/g, '').trim() });
  }
  return rows;
}

describe('docs/command-line.md', () => {
  const rows = documentedRows();
  const options = serveOptions.filter((option) => option !== helpOption);

  it.each(options.map((option) => [option.name, option] as const))('has a row for serve --%s with its environment variable', (name, option) => {
    const row = rows.find((candidate) => candidate.name === name);
    expect(row, `no row for --${name}`).toBeDefined();
    expect(row!.env).toBe(option.env === undefined ? '' : `${option.env}${option.boolean === true ? '=1' : ''}`);
  });

  it('has no row for an option serve does not have, and none twice', () => {
    expect(rows.map((row) => row.name).sort()).toEqual(options.map((option) => option.name).sort());
  });
});
