// Each API family has one error catalog (`x-error-codes`: code, status, condition) and every
// error example in the contract uses a code from it with its status.
import { describe, expect, it } from 'vitest';
import { isObject, loadContract, resolveLocal, type ContractKey, type Family, type Json, type JsonObject } from '../support/contracts.js';

interface CatalogEntry { code: string; status: number }

function catalogOf(doc: JsonObject): CatalogEntry[] {
  const raw = doc['x-error-codes'];
  return (Array.isArray(raw) ? raw : []).filter(isObject).map((e) => ({ code: String(e.code), status: Number(e.status) }));
}

/** (status, error code) of every example of every non-2xx response of every operation. */
function errorExamples(doc: JsonObject): { where: string; status: string; code: string }[] {
  const found: { where: string; status: string; code: string }[] = [];
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    for (const [method, op] of Object.entries(isObject(item) ? item : {})) {
      const responses = isObject(op) && isObject(op.responses) ? op.responses : {};
      for (const [status, raw] of Object.entries(responses)) {
        const response = resolveLocal(doc, raw);
        if (status.startsWith('2') || !isObject(response) || !isObject(response.content)) continue;
        for (const media of Object.values(response.content)) {
          if (!isObject(media)) continue;
          const values: Json[] = [
            ...('example' in media ? [media.example ?? null] : []),
            ...Object.values(isObject(media.examples) ? media.examples : {}).map((e) => (isObject(e) ? (e.value ?? null) : null)),
          ];
          for (const value of values) {
            const code = isObject(value) && isObject(value.error) ? value.error.code : undefined;
            if (typeof code === 'string') found.push({ where: `${method.toUpperCase()} ${path}`, status, code });
          }
        }
      }
    }
  }
  return found;
}

// A comma in an unquoted condition inside a `{ … }` entry ends it there: YAML reads the rest as
// keys without values, and the generated catalog and docs then carry half a sentence.
describe.each<ContractKey>(['v3', 'v1', 'control'])('%s error catalog entries', (key) => {
  it('keep each condition whole: no key of an entry is left without a value', () => {
    const raw = loadContract(key)['x-error-codes'];
    const entries = (Array.isArray(raw) ? raw : []).filter(isObject);
    expect(entries.length).toBeGreaterThan(5);
    for (const entry of entries) {
      const empty = Object.keys(entry).filter((name) => entry[name] === null);
      expect(empty, `${String(entry.code)}: keys without a value`).toEqual([]);
    }
  });
});

describe.each<Family>(['v3', 'v1'])('%s error catalog', (family) => {
  const doc = loadContract(family);
  const catalog = catalogOf(doc);

  it('lists unique codes with HTTP error statuses', () => {
    expect(catalog.length).toBeGreaterThan(5);
    expect(new Set(catalog.map((e) => e.code)).size).toBe(catalog.length);
    for (const entry of catalog) expect(entry.status).toBeGreaterThanOrEqual(400);
  });

  it('covers every error example, with the example status', () => {
    const examples = errorExamples(doc);
    expect(examples.length).toBeGreaterThan(0);
    for (const { where, status, code } of examples) {
      const entry = catalog.find((e) => e.code === code);
      expect(entry, `${where} ${status}: ${code} is not in x-error-codes`).toBeDefined();
      expect(String(entry?.status), `${where}: ${code}`).toBe(status);
    }
  });
});

it('the v1 catalog is exactly the V1Error code enum', () => {
  const doc = loadContract('v1');
  const v1Error = resolveLocal(doc, { $ref: '#/components/schemas/V1Error' });
  const codeEnum = isObject(v1Error) && isObject(v1Error.properties) && isObject(v1Error.properties.error)
    && isObject(v1Error.properties.error.properties) && isObject(v1Error.properties.error.properties.code)
    ? v1Error.properties.error.properties.code.enum : [];
  expect([...(Array.isArray(codeEnum) ? codeEnum : [])].sort()).toEqual(catalogOf(doc).map((e) => e.code).sort());
});
