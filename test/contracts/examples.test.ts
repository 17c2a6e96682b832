// Every schema of the contracts compiles with ajv (JSON Schema 2020-12, formats, strict) and
// every example validates against the schema it illustrates: an example that lies fails here.
import { describe, expect, it } from 'vitest';
import { createContractAjv, contractUri, type Ajv } from '../support/ajv.js';
import {
  catalogSchemaUri, isObject, loadCatalogSchemas, loadContract, type ContractKey, type JsonObject,
} from '../support/contracts.js';
import { documentExamples, schemaExamples, type ExampleCase } from '../support/examples.js';

function problemsOf(validatorAjv: Ajv, schemaRef: string, value: unknown): string {
  // Compile a reference rather than getSchema(ref): getSchema would compile the whole
  // containing document, and an OpenAPI document is not a schema.
  const validate = validatorAjv.compile({ $ref: schemaRef });
  return validate(value) ? '' : validatorAjv.errorsText(validate.errors, { separator: '\n' });
}

describe('catalog schemas (contracts/schemas)', () => {
  const ajv = createContractAjv([]);
  const catalog = loadCatalogSchemas();

  // No `$id` and no `$defs`: an `$id` re-bases the relative `$ref`s on a URL no tool can fetch
  // (and repeats one id wherever a bundler inlines the file), and openapi-typescript turns `$defs`
  // into a required property. Tools then read each file where it lies, as the generator does.
  it.each(catalog)('$file declares 2020-12 and a title, and no id or defs keyword', ({ schema }) => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(typeof schema.title).toBe('string');
    expect(JSON.stringify(schema)).not.toMatch(/"\$(id|defs)"/);
  });

  it.each(catalog)('$file compiles', ({ file }) => {
    expect(() => ajv.getSchema(catalogSchemaUri(file))).not.toThrow();
    expect(ajv.getSchema(catalogSchemaUri(file))).toBeTypeOf('function');
  });

  const cases = catalog.flatMap(({ file, schema }) =>
    schemaExamples(schema, '').map((example) => ({ ...example, file, id: catalogSchemaUri(file) })),
  );
  it.each(cases)('$file example $at matches its schema', ({ id, schemaPointer, value }) => {
    expect(problemsOf(ajv, `${id}#${schemaPointer}`, value)).toBe('');
  });
});

/**
 * An ajv that knows the catalog schemas and one contract, with the contract's URI. The service
 * families come from createContractAjv; the control contract joins an ajv of the catalog alone
 * the same way (its root extensions as annotations, the document under its URI).
 */
function contractChecker(key: ContractKey): { ajv: Ajv; doc: JsonObject; base: string } {
  return { ajv: createContractAjv([key]), doc: loadContract(key), base: contractUri(key) };
}

describe.each<ContractKey>(['v3', 'v1', 'control'])('%s contract', (family) => {
  const { ajv, doc, base } = contractChecker(family);
  const componentSchemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};

  it.each(Object.keys(componentSchemas))('components/schemas/%s compiles', (name) => {
    expect(() => ajv.compile({ $ref: `${base}#/components/schemas/${name}` })).not.toThrow();
  });

  const cases: ExampleCase[] = documentExamples(doc);
  it('has examples to check', () => {
    expect(cases.length).toBeGreaterThan(0);
  });
  it.each(cases)('example $at matches its schema', ({ schemaPointer, value }) => {
    expect(problemsOf(ajv, `${base}#${schemaPointer}`, value)).toBe('');
  });
});

describe('the example check itself', () => {
  it('rejects an example that does not match its schema', () => {
    const ajv = createContractAjv([]);
    const envelope = catalogSchemaUri('success-envelope.v1.json');
    expect(problemsOf(ajv, envelope, { state: 0, message: 'OK', result: null })).toMatch(/meta/);
    expect(problemsOf(ajv, envelope, { state: 1, message: 'OK', result: null, meta: { request_id: 'r', timestamp: 'now' } })).not.toBe('');
  });
});
