// The types emitter: schema-to-ts rule by rule (schema in, exact type text out), a file snapshot
// of emitTypes on a small fixture contract, and the real contracts' types compiled in strict mode
// together with code that uses them, including every example the contracts carry.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pascalCase } from '../../generator/emit/file.js';
import { emitTypes } from '../../generator/emit/types.js';
import { schemaToTs, typeName } from '../../generator/emit/schema-to-ts.js';
import { loadContract } from '../../generator/load.js';
import type { JsonValue } from '../../generator/load.js';
import { buildContractModel, isObject, resolvePointer } from '../../generator/model.js';
import type { ContractModel } from '../../generator/model.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const load = async (path: string): Promise<ContractModel> =>
  buildContractModel(await loadContract(join(repoRoot, path), repoRoot));

/** Type text with every run of whitespace as one space, so the table reads on one line. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ');

const document: JsonValue = {
  components: {
    schemas: {
      Route: {
        $defs: {
          side: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
          amount: { type: 'string' },
          loop: { type: 'array', items: { $ref: '#/components/schemas/Route/%24defs/loop' } },
        },
      },
    },
  },
};

const cases: { rule: string; given: JsonValue; want: string }[] = [
  { rule: 'string', given: { type: 'string', format: 'date-time' }, want: 'string' },
  { rule: 'number', given: { type: 'number' }, want: 'number' },
  { rule: 'integer → number', given: { type: 'integer', minimum: 1 }, want: 'number' },
  { rule: 'boolean', given: { type: 'boolean' }, want: 'boolean' },
  { rule: 'null', given: { type: 'null' }, want: 'null' },
  { rule: 'type list → union', given: { type: ['string', 'integer'] }, want: 'string | number' },
  { rule: 'type list: integer and number merge', given: { type: ['integer', 'number', 'null'] }, want: 'number | null' },
  { rule: 'nullable via a type list', given: { type: ['string', 'null'], maxLength: 3 }, want: 'string | null' },
  { rule: 'enum → union of literals', given: { type: 'string', enum: ['a', "it's", 'b"c'] }, want: `'a' | 'it\\'s' | 'b"c'` },
  { rule: 'enum of numbers and null', given: { enum: [0, 1, null] }, want: '0 | 1 | null' },
  { rule: 'const string → literal', given: { const: 'order.created' }, want: `'order.created'` },
  { rule: 'const with type → literal', given: { type: 'integer', const: 0 }, want: '0' },
  { rule: 'const boolean', given: { const: true }, want: 'true' },
  { rule: 'no type → unknown', given: { description: 'anything' }, want: 'unknown' },
  { rule: 'true schema → unknown', given: true, want: 'unknown' },
  { rule: 'false schema → never', given: false, want: 'never' },
  {
    rule: 'properties and required',
    given: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' } } },
    want: '{ id: number; name?: string; }',
  },
  {
    rule: 'property names quoted when not identifiers',
    given: { type: 'object', properties: { 'filter[status]': { type: 'string' }, 'X-Id': { type: 'string' }, $schema: { type: 'string' }, _ok1: { type: 'string' } } },
    want: `{ 'filter[status]'?: string; 'X-Id'?: string; $schema?: string; _ok1?: string; }`,
  },
  {
    rule: 'property description and deprecated → JSDoc',
    given: { type: 'object', properties: { a: { type: 'string', description: 'The a.' }, b: { type: 'string', description: 'Old.\nUse a. */', deprecated: true } } },
    want: '{ /** The a. */ a?: string; /** * Old. * Use a. *\\/ * @deprecated */ b?: string; }',
  },
  {
    rule: 'required name without a property → unknown',
    given: { type: 'object', required: ['result'] },
    want: '{ result: unknown; }',
  },
  {
    rule: 'properties without type → object',
    given: { properties: { a: { type: 'string' } } },
    want: '{ a?: string; }',
  },
  {
    rule: 'additionalProperties false → no index signature',
    given: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } },
    want: '{ a?: string; }',
  },
  {
    rule: 'additionalProperties false without properties → empty object',
    given: { type: 'object', additionalProperties: false },
    want: 'Record<string, never>',
  },
  {
    rule: 'additionalProperties schema → index signature',
    given: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    want: '{ [key: string]: string[]; }',
  },
  {
    rule: 'additionalProperties schema with properties: index admits their types',
    given: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, tag: { type: 'string' } }, additionalProperties: { type: 'boolean' } },
    want: '{ id: number; tag?: string; [key: string]: boolean | number | string | undefined; }',
  },
  {
    rule: 'additionalProperties absent without properties → unknown values',
    given: { type: 'object' },
    want: '{ [key: string]: unknown; }',
  },
  {
    rule: 'additionalProperties true without properties → unknown values',
    given: { type: 'object', additionalProperties: true },
    want: '{ [key: string]: unknown; }',
  },
  {
    rule: 'additionalProperties absent with properties → no index signature',
    given: { type: 'object', properties: { a: { type: 'string' } } },
    want: '{ a?: string; }',
  },
  { rule: 'items → array', given: { type: 'array', items: { type: 'integer' } }, want: 'number[]' },
  { rule: 'items union → parenthesised array', given: { type: 'array', items: { type: ['string', 'null'] } }, want: '(string | null)[]' },
  { rule: 'array without items → unknown[]', given: { type: 'array' }, want: 'unknown[]' },
  { rule: 'items of objects', given: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } }, want: '{ a?: string; }[]' },
  {
    rule: 'prefixItems → tuple, past minItems optional, open rest',
    given: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], minItems: 1 },
    want: '[string, number?, ...unknown[]]',
  },
  {
    rule: 'prefixItems with items false → closed tuple',
    given: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false, minItems: 2 },
    want: '[string, number]',
  },
  {
    rule: 'prefixItems with an items schema → typed rest',
    given: { type: 'array', prefixItems: [{ const: 'x' }], items: { type: 'number' }, minItems: 1 },
    want: `['x', ...number[]]`,
  },
  { rule: '$ref to a component → its name', given: { $ref: '#/components/schemas/Order' }, want: 'Order' },
  { rule: '$ref with an annotation sibling', given: { $ref: '#/components/schemas/Order', description: 'The order.' }, want: 'Order' },
  { rule: '$ref into a subschema → inlined', given: { $ref: '#/components/schemas/Route/%24defs/side' }, want: '{ id: number; }' },
  { rule: '$ref into a subschema, unencoded', given: { $ref: '#/components/schemas/Route/$defs/amount' }, want: 'string' },
  { rule: 'self-referencing subschema → unknown at the cycle', given: { $ref: '#/components/schemas/Route/$defs/loop' }, want: 'unknown[]' },
  {
    rule: 'allOf → intersection',
    given: { allOf: [{ $ref: '#/components/schemas/SuccessEnvelope' }, { type: 'object', required: ['result'], properties: { result: { $ref: '#/components/schemas/Order' } } }] },
    want: 'SuccessEnvelope & { result: Order; }',
  },
  { rule: 'oneOf → union', given: { oneOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }] }, want: 'A | B' },
  { rule: 'anyOf → union', given: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, want: 'string | number' },
  {
    rule: 'union inside an intersection is parenthesised',
    given: { allOf: [{ $ref: '#/components/schemas/A' }, { oneOf: [{ $ref: '#/components/schemas/B' }, { $ref: '#/components/schemas/C' }] }] },
    want: 'A & (B | C)',
  },
  {
    rule: 'bare type next to a typed anyOf is left out',
    given: { type: ['object', 'null'], anyOf: [{ $ref: '#/components/schemas/Transaction' }, { type: 'null' }] },
    want: 'Transaction | null',
  },
  {
    rule: 'bare type kept when the anyOf only constrains',
    given: { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] },
    want: 'string',
  },
  {
    rule: 'own properties intersect with allOf',
    given: { type: 'object', properties: { a: { type: 'string' } }, allOf: [{ $ref: '#/components/schemas/Base' }] },
    want: 'Base & { a?: string; }',
  },
  { rule: 'not is ignored', given: { type: 'integer', not: { const: 0 } }, want: 'number' },
  {
    rule: 'if/then/else is ignored',
    given: { type: 'object', required: ['a'], properties: { a: { type: 'string' } }, if: { required: ['a'] }, then: { required: ['b'] }, else: false },
    want: '{ a: string; }',
  },
  { rule: 'format binary → Blob', given: { type: 'string', format: 'binary' }, want: 'Blob' },
  { rule: 'contentMediaType → Blob', given: { type: 'string', contentMediaType: 'application/octet-stream' }, want: 'Blob' },
];

describe('schemaToTs', () => {
  it.each(cases)('$rule', ({ given, want }) => {
    expect(oneLine(schemaToTs(given, { document }))).toBe(want);
  });

  it('names components that are not identifiers in PascalCase', () => {
    expect(typeName('Order')).toBe('Order');
    expect(typeName('operation-contract')).toBe('OperationContract');
    expect(schemaToTs({ $ref: '#/components/schemas/operation-contract' })).toBe('OperationContract');
  });

  it('refuses references it cannot resolve', () => {
    expect(() => schemaToTs({ $ref: '#/components/schemas/Route/$defs/missing' }, { document })).toThrow(/nothing at that pointer/);
    expect(() => schemaToTs({ $ref: 'other.yaml#/X' }, { document })).toThrow(/only local references/);
  });
});

// The fixture's whole output, types.ts included, is snapshotted by fixture-output.test.ts.
describe('emitTypes on the fixture contract', () => {
  it('refuses a component whose name an operation type also takes', async () => {
    const model = await load('test/fixtures/contracts/widgets.openapi.yaml');
    const clash = { ...model, schemas: [...model.schemas, { name: 'ListWidgetsQuery', pointer: '/x', schema: { type: 'string' } }] };
    expect(() => emitTypes(clash)).toThrow('test/fixtures/contracts/widgets.openapi.yaml#/paths/~1widgets/get/operationId: two types would be named ListWidgetsQuery');
  });

  it('names a component called by a reserved word or starting with a digit so that its types.ts compiles', async () => {
    const model = await load('test/fixtures/contracts/widgets.openapi.yaml');
    const odd = { class: { type: 'string' }, object: { type: 'integer' }, '3ds': { type: 'object', properties: { a: { $ref: '#/components/schemas/class' } } } };
    // A reference to a whole component is named without looking it up in the document.
    const named = {
      ...model,
      schemas: [...model.schemas, ...Object.entries(odd).map(([name, schema]) => ({ name, pointer: `/components/schemas/${name}`, schema }))],
    };
    const file = emitTypes(named);
    expect(file.contents).toContain('export type Class = string;');
    expect(file.contents).toContain('export type _3ds = {\n  a?: Class;');
    const dir = mkdtempSync(join(tmpdir(), 'types-names-'));
    try {
      writeFileSync(join(dir, 'types.ts'), file.contents);
      const program = ts.createProgram([join(dir, 'types.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2023.d.ts'],
        types: ['node'], // Blob, for the fixture's multipart file
        typeRoots: [join(repoRoot, 'node_modules/@types')],
        skipLibCheck: true,
      });
      expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('emitTypes on the real contracts', () => {
  let workDir: string;
  const models: Record<string, ContractModel> = {};
  const outputs: Record<string, string> = {};

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'types-emitter-'));
    for (const name of ['exchange-v3', 'deposit-v1']) {
      const model = await load(`contracts/${name}.openapi.yaml`);
      const file = emitTypes(model);
      models[name] = model;
      outputs[name] = file.contents;
      mkdirSync(join(workDir, dirname(file.path)), { recursive: true });
      writeFileSync(join(workDir, file.path), file.contents);
    }
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('is deterministic: a second run gives the same text', () => {
    for (const [name, model] of Object.entries(models)) expect(emitTypes(model).contents).toBe(outputs[name]);
  });

  it('declares the expected names', () => {
    const exchange = outputs['exchange-v3']!;
    for (const declaration of [
      'export type Order = {',
      'export type ListOrdersQuery = {',
      `'filter[status]'?: OrderStatus[];`,
      'export type GetOrderPathParams = {',
      'export type CommitUploadIntentBody = CommitUploadIntentRequest;',
      'export type OrderCreatedWebhookBody = WebhookEventBody & {',
      'export interface Operations {',
      'export type WebhookBodies = {',
    ]) expect(exchange).toContain(declaration);
    expect(outputs['deposit-v1']).toContain('export type DepositPaidWebhookBody = DepositWebhookBody;');
  });

  it('compiles in strict mode with code that uses the types and every contract example', () => {
    writeFileSync(join(workDir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(workDir, 'use.ts'), usage);
    for (const [name, model] of Object.entries(models)) writeFileSync(join(workDir, `${name}-examples.ts`), examplesFile(name, model));
    const files = ['use.ts', 'exchange-v3-examples.ts', 'deposit-v1-examples.ts'].map((f) => join(workDir, f));
    const program = ts.createProgram(files, {
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts'],
      types: ['node'],
      typeRoots: [join(repoRoot, 'node_modules/@types')],
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) =>
      `${d.file ? `${d.file.fileName.slice(workDir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
    expect(diagnostics).toEqual([]);
    // The example files really hold examples (an empty file would compile too).
    expect(examplesFile('exchange-v3', models['exchange-v3']!).split('\n').length).toBeGreaterThan(100);
  });
});

/** Hand-written use of the emitted types; each @ts-expect-error proves a type is not too loose. */
const usage = `
import type { ListOrdersQuery, Operations, Order, OrderStatus, WebhookBodies as ExchangeWebhooks } from './exchange-v3/types.js';
import type { Deposit, Operations as DepositOperations, WebhookBodies as DepositWebhooks } from './deposit-v1/types.js';

const amount = '10.5';
export const order: Order = {
  id: 1, public_id: 'AB12CD34EF', tracking_id: 'T1', status: 'awaiting_payment', route_id: 12, quote_id: null,
  client_order_id: null, email: 'client@example.com', amount_in: amount, amount_out: amount,
  currency_in: 'BTC', currency_out: 'USDT', rate: amount, fee: amount, from_requisite: null,
  to_requisite: null, requisites: {},
  payment_details: { network: 'BTC', address: 'bc1q', memo: null, account: null, amount, currency: 'BTC', expires_at: '2026-11-21T12:00:00Z', amount_received: '0', transactions: [] },
  verification: { required: false, status: null }, correlation_id: null, expires_at: null,
  created_at: '2026-11-21T12:00:00Z', updated_at: '2026-11-21T12:00:00Z', completed_at: null,
};
// @ts-expect-error id is a number
export const wrongOrder: Order = { ...order, id: '1' };
// @ts-expect-error not an order status
export const wrongStatus: OrderStatus = 'nonsense';

export const query: ListOrdersQuery = { page: 1, 'filter[status]': ['paid', 'completed'], sort: ['-created_at'] };
export const sameQuery: Operations['listOrders']['query'] = query;
export const noPath: Operations['listOrders']['path'] = {};
export const noBody: Operations['listOrders']['body'] = undefined;
export function firstOrder(result: Operations['listOrders']['result']): Order | undefined {
  return result.result.orders[0];
}
export function errorCode(error: Operations['getOrder']['error']): string {
  return error.error.code;
}
export const orderId: Operations['getOrder']['path']['order'] = 'AB12CD34EF';
export function upload(file: Blob): Operations['commitUploadIntent']['body'] {
  return { file };
}
export function createdOrder(body: ExchangeWebhooks['order.created']): Order['public_id'] {
  return body.data.order.public_id;
}

export function depositAddress(deposit: Deposit): string {
  return deposit.address;
}
export function pageOfDeposits(result: DepositOperations['listDeposits']['result']): Deposit[] {
  return result.data;
}
export function sweptDeposit(body: DepositWebhooks['deposit.swept']): string {
  return body.eventId;
}
`;

/** `const` declarations assigning each example of the contract to the type it illustrates. */
function examplesFile(name: string, model: ContractModel): string {
  const lines = [`import type * as T from './${name}/types.js';`];
  const add = (type: string, value: JsonValue): void => {
    lines.push(`export const example${lines.length}: ${type} = ${JSON.stringify(value)};`);
  };
  for (const { name: schemaName, schema } of model.schemas) {
    // A file part's example is a placeholder string for what is a Blob in the type.
    if (JSON.stringify(schema).includes('"contentMediaType"')) continue;
    for (const value of examplesOf(schema)) add(`T.${typeName(schemaName)}`, value);
  }
  const doc = model.document as unknown as JsonValue;
  for (const op of model.operations) {
    const Op = pascalCase(op.operationId);
    if (op.body?.contentType === 'application/json') {
      for (const value of examplesOf(resolvePointer(doc, op.body.pointer.replace(/\/schema$/, '')))) add(`T.${Op}Body`, value);
    }
    for (const response of op.responses) {
      if (response.contentType !== 'application/json' || response.body === undefined) continue;
      for (const value of examplesOf(resolvePointer(doc, response.body.pointer.replace(/\/schema$/, '')))) {
        add(`T.${Op}Responses['${response.status}']`, value);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `example`, `examples` (a schema's list, or a media type's map of `{ value }`). */
function examplesOf(node: JsonValue): JsonValue[] {
  if (!isObject(node)) return [];
  const values: JsonValue[] = 'example' in node ? [node.example ?? null] : [];
  const { examples } = node;
  if (Array.isArray(examples)) values.push(...examples);
  else if (isObject(examples)) for (const entry of Object.values(examples)) if (isObject(entry) && 'value' in entry) values.push(entry.value ?? null);
  return values;
}
