// contracts/platform-contracts.yaml is what /public/contracts serves: each entry is a valid
// `Contract` of the v3 contract, and it and contracts/schemas name each other exactly.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractUri, createContractAjv } from '../support/ajv.js';
import { contractsDir, isObject, loadCatalogSchemas, readYaml, type Json } from '../support/contracts.js';

const catalog = readYaml(join(contractsDir, 'platform-contracts.yaml'));
const contracts: Json[] = isObject(catalog) && Array.isArray(catalog.contracts) ? catalog.contracts : [];
const schemaKeys = loadCatalogSchemas().map((s) => s.key);

describe('platform contracts catalog', () => {
  const ajv = createContractAjv(['v3']);
  const validateContract = ajv.compile({ $ref: `${contractUri('v3')}#/components/schemas/Contract` });

  it('lists contracts', () => {
    expect(contracts.length).toBeGreaterThan(0);
  });

  it.each(contracts.map((c) => [isObject(c) ? c.key : '?', c] as const))('%s is a valid Contract', (_key, contract) => {
    expect(validateContract(contract), ajv.errorsText(validateContract.errors)).toBe(true);
  });

  it('has unique keys', () => {
    const keys = contracts.map((c) => (isObject(c) ? c.key : null));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives every catalog schema exactly one contract, and names only existing schemas', () => {
    const named = contracts.flatMap((c) => (isObject(c) && Array.isArray(c.schemas) ? c.schemas : []));
    expect([...named].sort()).toEqual([...schemaKeys].sort());
  });
});
