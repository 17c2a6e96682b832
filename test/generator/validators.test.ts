// The validators emitter: emits both contracts, writes the files, imports the generated ESM and
// runs it — every response, request-body and webhook example of the contracts must pass its
// validator, and known-bad values must fail.
import type { ErrorObject } from 'ajv';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitValidators } from '../../generator/emit/validators.js';
import type { GeneratedFile } from '../../generator/emit/file.js';
import { loadContract, type JsonObject, type JsonValue } from '../../generator/load.js';
import { buildContractModel, isObject, resolvePointer, type ContractModel } from '../../generator/model.js';
import { repoRoot } from '../support/contracts.js';

interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}
interface OperationValidatorSet {
  path?: Validator;
  query?: Validator;
  headers?: Validator;
  body?: Validator;
  responses: Record<string, Validator | undefined>;
}
interface ValidatorsModule {
  operationValidators: Record<string, OperationValidatorSet>;
  webhookValidators: Record<string, Validator | undefined>;
  [exportName: string]: unknown;
}

// The generated code imports ajv at run time: the output folder sees the repository's packages.
const outDir = mkdtempSync(join(tmpdir(), 'validators-'));
symlinkSync(join(repoRoot, 'node_modules'), join(outDir, 'node_modules'), 'dir');
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

async function modelOf(path: string): Promise<ContractModel> {
  return buildContractModel(await loadContract(join(repoRoot, path), repoRoot));
}

function write(files: GeneratedFile[]): void {
  for (const file of files) {
    mkdirSync(join(outDir, file.path, '..'), { recursive: true });
    writeFileSync(join(outDir, file.path), file.contents);
  }
}

async function importValidators(name: string): Promise<ValidatorsModule> {
  return (await import(pathToFileURL(join(outDir, name, 'validators.js')).href)) as ValidatorsModule;
}

function validator(module: ValidatorsModule, exportName: string): Validator {
  const value = module[exportName];
  if (typeof value !== 'function') throw new Error(`no export ${exportName}`);
  return value as Validator;
}

/** `example` and `examples.*.value` of the media type whose schema sits at schemaPointer. */
function mediaExamples(doc: JsonObject, schemaPointer: string): { at: string; value: JsonValue }[] {
  const mediaPointer = schemaPointer.replace(/\/schema$/, '');
  const media = resolvePointer(doc, mediaPointer);
  if (!isObject(media)) return [];
  const found: { at: string; value: JsonValue }[] = [];
  if ('example' in media) found.push({ at: `${mediaPointer}/example`, value: media.example ?? null });
  for (const [name, raw] of Object.entries(isObject(media.examples) ? media.examples : {})) {
    const example = isObject(raw) && typeof raw.$ref === 'string' ? resolvePointer(doc, raw.$ref.slice(1)) : raw;
    if (isObject(example) && 'value' in example) found.push({ at: `${mediaPointer}/examples/${name}`, value: example.value ?? null });
  }
  return found;
}

interface ExampleCase {
  at: string;
  validate: Validator;
  value: JsonValue;
}

/** Every JSON example of the contract, paired with the generated validator it must pass. */
function exampleCases(model: ContractModel, module: ValidatorsModule): ExampleCase[] {
  const doc = model.document as unknown as JsonObject;
  const cases: ExampleCase[] = [];
  for (const op of model.operations) {
    const set = module.operationValidators[op.operationId]!;
    for (const response of op.responses) {
      const validate = set.responses[response.status];
      if (!validate || !response.body) continue;
      for (const example of mediaExamples(doc, response.body.pointer)) cases.push({ ...example, validate });
    }
    if (set.body && op.body) {
      for (const example of mediaExamples(doc, op.body.pointer)) cases.push({ ...example, validate: set.body });
    }
  }
  for (const { event, operation } of model.webhooks) {
    const validate = module.webhookValidators[event];
    if (!validate || !operation.body) continue;
    for (const example of mediaExamples(doc, operation.body.pointer)) cases.push({ ...example, validate });
  }
  return cases;
}

function failures(cases: ExampleCase[]): { at: string; errors: unknown }[] {
  return cases.filter(({ validate, value }) => !validate(value)).map(({ at, validate }) => ({ at, errors: validate.errors }));
}

/** The example of one response, deep-copied for mutation. */
function responseExample(model: ContractModel, operationId: string, status: string): JsonObject {
  const response = model.operations.find((op) => op.operationId === operationId)?.responses.find((r) => r.status === status);
  const [first] = mediaExamples(model.document as unknown as JsonObject, response?.body?.pointer ?? '');
  if (!first || !isObject(first.value)) throw new Error(`${operationId} ${status} has no object example`);
  return structuredClone(first.value);
}

function mutated(value: JsonObject, change: (copy: JsonObject) => void): JsonObject {
  const copy = structuredClone(value);
  change(copy);
  return copy;
}

function at(value: JsonObject, ...path: string[]): JsonObject {
  const node = path.reduce<JsonValue | undefined>((n, key) => (isObject(n) ? n[key] : undefined), value);
  if (!isObject(node)) throw new Error(`no object at ${path.join('.')}`);
  return node;
}

const contracts = [
  { path: 'contracts/exchange-v3.openapi.yaml', name: 'exchange-v3' },
  { path: 'contracts/deposit-v1.openapi.yaml', name: 'deposit-v1' },
] as const;

const models = new Map<string, ContractModel>();
const emitted = new Map<string, GeneratedFile[]>();
const modules = new Map<string, ValidatorsModule>();

beforeAll(async () => {
  for (const { path, name } of contracts) {
    const model = await modelOf(path);
    const files = emitValidators(model);
    write(files);
    models.set(name, model);
    emitted.set(name, files);
    modules.set(name, await importValidators(name));
  }
}, 60_000);

const v3 = () => modules.get('exchange-v3')!;
const v1 = () => modules.get('deposit-v1')!;

describe('emitValidators on the real contracts', () => {
  it.each(contracts)('$name: writes validators.js and validators.d.ts with the banner', ({ name }) => {
    const files = emitted.get(name)!;
    expect(files.map((f) => f.path)).toEqual([`${name}/validators.js`, `${name}/validators.d.ts`]);
    for (const file of files) {
      expect(file.contents.startsWith(`// generated by npm run generate from contracts/${name}.openapi.yaml — do not edit\n`)).toBe(true);
    }
  });

  it.each(contracts)('$name: is ESM only — no require(, every import a static ESM import', ({ name }) => {
    const js = emitted.get(name)![0]!.contents;
    expect(js).not.toContain('require(');
    const imports = js.split('\n').filter((line) => line.startsWith('import '));
    expect(imports.length).toBeGreaterThan(0);
    for (const line of imports) expect(line).toMatch(/^import \* as \w+ from "[\w@/.-]+\.js";$/);
    expect(imports).toContain('import * as imported_ajv_formats_dist_formats_namespace from "ajv-formats/dist/formats.js";');
  });

  it.each(contracts)('$name: indexes a validator set for every operation', ({ name }) => {
    const model = models.get(name)!;
    const module = modules.get(name)!;
    expect(Object.keys(module.operationValidators)).toEqual(model.operations.map((op) => op.operationId));
    expect(Object.keys(module.webhookValidators)).toEqual(model.webhooks.map((w) => w.event));
    for (const op of model.operations) {
      const set = module.operationValidators[op.operationId]!;
      for (const response of op.responses) {
        const json = response.contentType !== undefined && /json$/.test(response.contentType);
        expect(set.responses[response.status] !== undefined, `${op.operationId} ${response.status}`).toBe(json);
      }
    }
  });

  it.each(contracts)('$name: every example passes its validator', ({ name }) => {
    const cases = exampleCases(models.get(name)!, modules.get(name)!);
    expect(cases.length).toBeGreaterThan(name === 'exchange-v3' ? 100 : 30);
    expect(failures(cases)).toEqual([]);
  });

  it.each(contracts)('$name: no example passes as a bare number', ({ name }) => {
    const cases = exampleCases(models.get(name)!, modules.get(name)!);
    expect(cases.filter(({ validate }) => validate(42)).map((c) => c.at)).toEqual([]);
  });

  it('exchange-v3: envelope mutations of every response example fail', () => {
    const cases = exampleCases(models.get('exchange-v3')!, v3()).filter(({ at: where, value }) =>
      where.includes('/responses/') && isObject(value) && isObject(value.meta));
    expect(cases.length).toBeGreaterThan(50);
    const mutations: [string, (copy: JsonObject) => void][] = [
      ['drop required meta', (copy) => { delete copy.meta; }],
      ['state as a string', (copy) => { copy.state = '0'; }],
      ['timestamp not a date-time', (copy) => { at(copy, 'meta').timestamp = '21/11/2026 12:00'; }],
    ];
    const passing = cases.flatMap(({ at: where, validate, value }) => mutations
      .filter(([, change]) => validate(mutated(value as JsonObject, change)))
      .map(([label]) => `${where}: ${label}`));
    expect(passing).toEqual([]);
  });

  it('exchange-v3: getOrder 200 rejects a bad order', () => {
    const validate = v3().operationValidators.getOrder!.responses['200']!;
    const example = responseExample(models.get('exchange-v3')!, 'getOrder', '200');
    expect(validate(example)).toBe(true);
    const bad: [string, (copy: JsonObject) => void][] = [
      ['missing id', (copy) => { delete at(copy, 'result', 'order').id; }],
      ['id as a string', (copy) => { at(copy, 'result', 'order').id = '1042'; }],
      ['unknown status', (copy) => { at(copy, 'result', 'order').status = 'teleported'; }],
      ['tracking_id not a uuid', (copy) => { at(copy, 'result', 'order').tracking_id = 'not-a-uuid'; }],
      ['created_at not a date-time', (copy) => { at(copy, 'result', 'order').created_at = 'yesterday'; }],
    ];
    for (const [label, change] of bad) {
      expect(validate(mutated(example, change)), label).toBe(false);
      expect(validate.errors?.length, label).toBeGreaterThan(0);
    }
  });

  it('deposit-v1: getDeposit 200 rejects a bad deposit', () => {
    const validate = v1().operationValidators.getDeposit!.responses['200']!;
    const example = responseExample(models.get('deposit-v1')!, 'getDeposit', '200');
    expect(validate(example)).toBe(true);
    const bad: [string, (copy: JsonObject) => void][] = [
      ['missing uuid', (copy) => { delete at(copy, 'data').uuid; }],
      ['uuid not a uuid', (copy) => { at(copy, 'data').uuid = 'c07d612b'; }],
      ['unknown status', (copy) => { at(copy, 'data').status = 'lost'; }],
      ['isFinal as a string', (copy) => { at(copy, 'data').isFinal = 'no'; }],
    ];
    for (const [label, change] of bad) expect(validate(mutated(example, change)), label).toBe(false);
  });

  it('shares one function for a response used by many operations', () => {
    const { operationValidators } = v3();
    expect(operationValidators.getOrder!.responses['404']).toBe(operationValidators.getExchangeOrder!.responses['404']);
    expect(operationValidators.listOrders!.responses['422']).toBe(operationValidators.ping!.responses['422']);
  });
});

describe('request validators', () => {
  it('listOrders_query: filter[status] is an array of statuses; per_page within 1..100', () => {
    const validate = validator(v3(), 'listOrders_query');
    expect(validate({ 'filter[status]': ['paid', 'processing'], per_page: 100, page: 2 })).toBe(true);
    expect(validate({})).toBe(true);
    expect(validate({ utm_source: 'newsletter' }), 'unknown query parameters are allowed').toBe(true);
    expect(validate({ 'filter[status]': ['paid', 'teleported'] })).toBe(false);
    expect(validate({ 'filter[status]': 'paid' }), 'comma lists arrive split').toBe(false);
    expect(validate({ per_page: 0 })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: '/per_page', keyword: 'minimum' });
    expect(validate({ per_page: 101 })).toBe(false);
    expect(validate({ per_page: '10' }), 'numbers arrive parsed').toBe(false);
  });

  it('headers: lower-case names; X-Correlation-Id at most 128 characters', () => {
    const validate = validator(v3(), 'listOrders_headers');
    expect(validate({ 'x-correlation-id': 'c'.repeat(128) })).toBe(true);
    expect(validate({ 'x-correlation-id': 'c'.repeat(129) })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: '/x-correlation-id', keyword: 'maxLength' });
    expect(validate({ 'x-correlation-id': '' })).toBe(false);
    expect(validate({ 'user-agent': 'curl/8' }), 'other headers are allowed').toBe(true);
  });

  it('createOrder_headers: any Idempotency-Key of 8..191 characters passes, a shorter one fails', () => {
    const validate = validator(v3(), 'createOrder_headers');
    fc.assert(fc.property(fc.string({ minLength: 8, maxLength: 191 }), (key) => validate({ 'idempotency-key': key })));
    fc.assert(fc.property(fc.string({ maxLength: 7 }), (key) => !validate({ 'idempotency-key': key })));
    fc.assert(fc.property(fc.string({ minLength: 192, maxLength: 400 }), (key) => !validate({ 'idempotency-key': key })));
  });

  it('createDeposit_body: a known body passes, an unknown field or a missing asset fails', () => {
    const validate = validator(v1(), 'createDeposit_body');
    expect(validate({ order_id: 'ORD-1', asset: 'USDT_TRON', amount: '150.00' })).toBe(true);
    expect(validate({ order_id: 'ORD-1', asset: 'USDT_TRON', colour: 'blue' })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'additionalProperties', params: { additionalProperty: 'colour' } });
    expect(validate({ order_id: 'ORD-1' })).toBe(false);
  });

  it('createDeposit_headers: X-Idempotency-Key by its lower-case name', () => {
    const validate = validator(v1(), 'createDeposit_headers');
    expect(validate({ 'x-idempotency-key': 'key-0001' })).toBe(true);
    expect(validate({ 'x-idempotency-key': 'k' })).toBe(false);
  });

  it('getDeposit_path: the uuid is required and must be a uuid', () => {
    const validate = validator(v1(), 'getDeposit_path');
    expect(validate({ uuid: 'c07d612b-c607-461f-9af8-6e19c5802e21' })).toBe(true);
    expect(validate({ uuid: 'nope' })).toBe(false);
    expect(validate({})).toBe(false);
  });

  it('commitUploadIntent (multipart) has no body validator', () => {
    expect(v3().operationValidators.commitUploadIntent!.body).toBeUndefined();
    expect(v3().commitUploadIntent_body).toBeUndefined();
  });
});

describe('output', () => {
  it.each(contracts)('$name: two emits are byte-identical', async ({ path, name }) => {
    const again = emitValidators(await modelOf(path));
    expect(again).toEqual(emitted.get(name));
  });

  it.each(contracts)('$name: validators.d.ts declares exactly the exports and passes strict tsc', ({ name }) => {
    const [, dts] = emitted.get(name)!;
    const declared = [...dts!.contents.matchAll(/^export declare const (\w+)/gm)].map((m) => m[1]);
    expect(declared.sort()).toEqual(Object.keys(modules.get(name)!).sort());
    const program = ts.createProgram([join(outDir, name, 'validators.d.ts')], {
      strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022, types: [],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });
});

describe('naming rules (fixture contract)', () => {
  let model: ContractModel;
  let module: ValidatorsModule;
  beforeAll(async () => {
    model = await modelOf('test/fixtures/validators/naming.openapi.yaml');
    const files = emitValidators(model);
    write(files);
    module = await importValidators(model.name);
  });

  it.each([
    { exportName: 'putWidget_path', why: 'path-level and operation parameters in one object' },
    { exportName: 'putWidget_query', why: 'query parameters' },
    { exportName: 'putWidget_headers', why: 'header parameters' },
    { exportName: 'putWidget_body', why: 'a JSON request body' },
    { exportName: 'putWidget_response_200', why: 'a JSON response' },
    { exportName: 'putWidget_response_4XX', why: 'a range status, with a +json media type' },
    { exportName: 'putWidget_response_default', why: 'the default response' },
    { exportName: 'uploadWidgetPhoto_path', why: 'an operation with a multipart body keeps its parameters' },
    { exportName: 'uploadWidgetPhoto_response_400', why: 'a JSON error of a multipart operation' },
    { exportName: 'widgetCreatedWebhook_headers', why: 'webhook headers' },
    { exportName: 'widgetCreatedWebhook_body', why: 'a webhook body' },
  ])('exports $exportName ($why)', ({ exportName }) => {
    expect(typeof module[exportName]).toBe('function');
  });

  it.each([
    { exportName: 'putWidget_response_204', why: 'a response without a body' },
    { exportName: 'uploadWidgetPhoto_body', why: 'a multipart body' },
    { exportName: 'uploadWidgetPhoto_query', why: 'no query parameters' },
    { exportName: 'getWidgetsYaml_response_200', why: 'a YAML response' },
  ])('does not export $exportName ($why)', ({ exportName }) => {
    expect(module[exportName]).toBeUndefined();
  });

  it('exports exactly those names', () => {
    expect(Object.keys(module).sort()).toEqual([
      'operationValidators', 'putWidget_body', 'putWidget_headers', 'putWidget_path', 'putWidget_query',
      'putWidget_response_200', 'putWidget_response_4XX', 'putWidget_response_default',
      'uploadWidgetPhoto_path', 'uploadWidgetPhoto_response_400', 'webhookValidators',
      'widgetCreatedWebhook_body', 'widgetCreatedWebhook_headers',
    ]);
  });

  it('indexes operations and webhooks by their keys', () => {
    const { operationValidators, webhookValidators } = module;
    expect(Object.keys(operationValidators)).toEqual(['putWidget', 'uploadWidgetPhoto', 'getWidgetsYaml']);
    expect(operationValidators.putWidget).toEqual({
      path: module.putWidget_path, query: module.putWidget_query, headers: module.putWidget_headers,
      body: module.putWidget_body,
      responses: { '200': module.putWidget_response_200, '4XX': module.putWidget_response_4XX, default: module.putWidget_response_default },
    });
    expect(operationValidators.getWidgetsYaml).toEqual({ responses: {} });
    expect(webhookValidators).toEqual({ 'widget.created': module.widgetCreatedWebhook_body });
  });

  it('header names are lower-cased; a required header must be present', () => {
    const validate = validator(module, 'putWidget_headers');
    expect(validate({ 'x-trace-token': 'abcd' })).toBe(true);
    expect(validate({ 'X-Trace-Token': 'abcd' })).toBe(false);
    expect(validate({ 'x-trace-token': 'abc' })).toBe(false);
  });

  it('path parameters are required', () => {
    const validate = validator(module, 'putWidget_path');
    expect(validate({ widget: '3f6b2c1e-8a4d-4e7f-9b2c-5d1e0a9f8c7b' })).toBe(true);
    expect(validate({})).toBe(false);
  });

  it('a component used as body and response compiles once', () => {
    expect(module.putWidget_body).toBe(module.putWidget_response_200);
    expect(module.putWidget_response_4XX).toBe(module.putWidget_response_default);
  });
});
