// Every decision the API description leaves open is marked `x-assumption` in the contracts; this
// lists them all and checks each is one plain line. `npm run generate` renders the same list into
// docs/contracts.md and generated/docs/assumptions.md (test/generator/generate.test.ts keeps those fresh).
import { describe, expect, it } from 'vitest';
import { collectAssumptions } from '../../generator/assumptions.js';
import { contractsDir } from '../support/contracts.js';

const assumptions = collectAssumptions(contractsDir);

describe('assumptions', () => {
  it('are found in the three OpenAPI contracts, the catalog schemas, the contracts catalog and the machines', () => {
    const files = new Set(assumptions.map((a) => a.file.split('/')[0]));
    expect(files).toEqual(new Set([
      'exchange-v3.openapi.yaml', 'deposit-v1.openapi.yaml', 'sandbox-control.openapi.yaml', 'schemas',
      'platform-contracts.yaml', 'machines',
    ]));
  });

  it.each(assumptions)('$file#$pointer is one non-empty line', ({ text }) => {
    expect(text.trim().length).toBeGreaterThan(10);
    expect(text).not.toMatch(/\n/);
  });
});
