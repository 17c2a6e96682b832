// Every decision the API description leaves open is marked `x-assumption` in the contracts; this
// lists them all, checks each is one plain line, and keeps the README's list equal to them.
// `UPDATE_README=1 npx vitest run test/contracts/assumptions.test.ts` rewrites that README section.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectAssumptions, readmeMarkers, renderAssumptions } from '../support/assumptions.js';
import { repoRoot } from '../support/contracts.js';

const assumptions = collectAssumptions();

describe('assumptions', () => {
  it('are found in both API contracts, the catalog schemas and the machines', () => {
    const files = new Set(assumptions.map((a) => a.file.split('/')[0]));
    expect(files).toEqual(new Set(['exchange-v3.openapi.yaml', 'deposit-v1.openapi.yaml', 'schemas', 'machines']));
  });

  it.each(assumptions)('$file#$pointer is one non-empty line', ({ text }) => {
    expect(text.trim().length).toBeGreaterThan(10);
    expect(text).not.toMatch(/\n/);
  });

  it('are listed in the README, exactly', () => {
    const readmePath = join(repoRoot, 'README.md');
    const readme = readFileSync(readmePath, 'utf8');
    const start = readme.indexOf(readmeMarkers.start);
    const end = readme.indexOf(readmeMarkers.end);
    expect(start, 'README has the assumptions markers').toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    const current = readme.slice(start, end + readmeMarkers.end.length);
    const wanted = renderAssumptions(assumptions);
    if (process.env.UPDATE_README === '1' && current !== wanted) {
      writeFileSync(readmePath, readme.replace(current, wanted));
      return;
    }
    expect(current, 'run UPDATE_README=1 npx vitest run test/contracts/assumptions.test.ts').toBe(wanted);
  });
});
