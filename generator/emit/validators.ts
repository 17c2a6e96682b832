// Emits `<contract>/validators.js` (ajv standalone ESM code, compiled here at generate time) and
// its declarations `<contract>/validators.d.ts`.
//
// One Ajv2020 instance per contract holds the whole bundled document under contractUri(name),
// plus one entry schema per validated location under the document's `$defs`. Entries and
// components therefore share one root, so every `$ref` to a component resolves to the same
// compiled function whichever operation reaches it, and standalone code emits each function
// once. Only schemas that some entry reaches are compiled.
//
// What the validators check, per operation (export `<operationId>_<part>`):
// - `_path`, `_query`, `_headers`: an object of that location's parameters, by the parameter
//   schemas. They validate *parsed* values (numbers, booleans, comma lists split into arrays):
//   turning wire strings into those is the router's job. Unknown query parameters and headers
//   are allowed (clients and proxies add their own); header names are lower-case, as node
//   delivers them.
// - `_body`: JSON request bodies only. Multipart bodies (file uploads) get no validator: their
//   parts are files the router checks for presence, not JSON values.
// - `_response_<status>`: every response with a JSON body (`4XX` gives `_response_4XX`).
// Cookie parameters get no validator (the contracts have none). Webhooks get `<operationId>_body`
// (indexed by event type in `webhookValidators`) and `<operationId>_headers`.
import Ajv2020Module from 'ajv/dist/2020.js';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import type { JsonObject } from '../load.js';
import type { ContractModel, OperationModel, ParameterModel, SchemaRef } from '../model.js';
import { banner, type GeneratedFile } from './file.js';
import { withLinearErrorMerge } from './linear-error-merge.js';
import { hintUniqueItemTypes } from './unique-item-types.js';
import { unionChoices } from './union-choices.js';

// ajv and ajv-formats are CommonJS with a default export; under NodeNext it sits on `.default`.
const Ajv2020 = Ajv2020Module.default;
const standaloneCode = standaloneCodeModule.default;
const addFormats = addFormatsModule.default;
const { _ } = Ajv2020Module;
type Ajv = InstanceType<typeof Ajv2020>;

/** The URI the bundled document is known by inside ajv; its `#/...` references resolve against it. */
export function contractUri(name: string): string {
  return `https://exchange-api-kit.dev/contracts/${name}.openapi.yaml`;
}

// OpenAPI keywords that may stand inside a schema object, and the fields of an OpenAPI root.
// Declared as annotation vocabulary (with every `x-` extension the document uses) they keep
// strict mode on for everything else, and make the document's root compile to a no-op.
const schemaAnnotationKeywords = ['example', 'discriminator', 'xml', 'externalDocs'];
const openApiRootFields = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags'];

const jsonMediaType = /^application\/(?:[\w.+-]+\+)?json$/;
const identifier = /^[A-Za-z_$][\w$]*$/;

type Part = 'path' | 'query' | 'headers' | 'body';
const parameterParts: { part: Exclude<Part, 'body'>; location: ParameterModel['in'] }[] = [
  { part: 'path', location: 'path' },
  { part: 'query', location: 'query' },
  { part: 'headers', location: 'header' },
];

interface OperationExports {
  operation: OperationModel;
  /** Export name of each part the operation has. */
  parts: Partial<Record<Part, string>>;
  /** Status, export name and body of each JSON response, in contract order. */
  responses: { status: string; exportName: string; body: SchemaRef }[];
}

/** What one export compiles, before entries with the same schema are merged. */
interface Compiled {
  exportName: string;
  schema: JsonObject;
}

/** One validated location: the export names that share it and the schema they compile. */
interface Entry {
  exportNames: string[];
  schema: JsonObject;
}

export function emitValidators(model: ContractModel): GeneratedFile[] {
  const operations = model.operations.map((op) => operationExports(op, true));
  // A webhook's responses are the receiving integrator's, outside the contract's promises.
  const webhooks = model.webhooks.map(({ event, operation }) => ({ event, exports: operationExports(operation, false) }));
  const entries = sharedEntries([...operations, ...webhooks.map((w) => w.exports)].flatMap(compiledParts));
  const moduleCode = withLinearErrorMerge(esmImports(standaloneCode(contractAjv(model, entries), entryMapping(model.name, entries))));
  const js = [
    banner(model.source),
    moduleCode,
    ...aliases(entries),
    ...requestUnions(model, entries, [...operations, ...webhooks.map((w) => w.exports)]),
    `export const operationValidators = ${operationIndex(operations)};`,
    `export const webhookValidators = ${objectLiteral(webhooks.map(({ event, exports }) => [event, exports.parts.body ?? 'undefined']))};`,
    '',
  ].join('\n');
  return [
    { path: `${model.name}/validators.js`, contents: js },
    { path: `${model.name}/validators.d.ts`, contents: declarations(model, operations, webhooks) },
  ];
}

function operationExports(operation: OperationModel, withResponses: boolean): OperationExports {
  const { operationId } = operation;
  if (!identifier.test(operationId)) throw new Error(`operationId ${operationId} is not a JavaScript identifier`);
  const parts: OperationExports['parts'] = {};
  for (const { part, location } of parameterParts) {
    if (operation.parameters.some((p) => p.in === location)) parts[part] = `${operationId}_${part}`;
  }
  if (operation.body && jsonMediaType.test(operation.body.contentType)) parts.body = `${operationId}_body`;
  const responses = operation.responses.flatMap(({ status, contentType, body }) =>
    withResponses && body && contentType && jsonMediaType.test(contentType)
      ? [{ status, exportName: `${operationId}_response_${status.replace(/[^\w$]/g, '_')}`, body }]
      : []);
  return { operation, parts, responses };
}

function compiledParts({ operation, parts, responses }: OperationExports): Compiled[] {
  const compiled: Compiled[] = [];
  for (const { part, location } of parameterParts) {
    const exportName = parts[part];
    if (exportName) compiled.push({ exportName, schema: parametersSchema(operation.parameters.filter((p) => p.in === location)) });
  }
  if (parts.body && operation.body) compiled.push({ exportName: parts.body, schema: entrySchema(operation.body) });
  for (const { exportName, body } of responses) compiled.push({ exportName, schema: entrySchema(body) });
  return compiled;
}

// Operations that share a response (`#/components/responses/NotFound`) or the same parameters
// compile one entry and export its function under every name.
function sharedEntries(compiled: Compiled[]): Entry[] {
  const byShape = new Map<string, Entry>();
  for (const { exportName, schema } of compiled) {
    const shape = JSON.stringify(schema);
    const entry = byShape.get(shape);
    if (entry) entry.exportNames.push(exportName);
    else byShape.set(shape, { exportNames: [exportName], schema });
  }
  return [...byShape.values()];
}

/** The object a location's parameters form, by the parameters' schemas. */
function parametersSchema(parameters: ParameterModel[]): JsonObject {
  const key = (p: ParameterModel) => (p.in === 'header' ? p.name.toLowerCase() : p.name);
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [key(p), placedSchema(p)])),
    required: parameters.filter((p) => p.required).map(key),
  };
}

// A schema written once in the contract compiles once: one under `components` is referred to
// (every user calls its function); one written inline under `paths` is copied into the entry,
// so identical inline schemas of different operations make identical entries, compiled once.
function placedSchema({ pointer, schema }: SchemaRef): JsonObject {
  return pointer.startsWith('/components/') ? { $ref: `#${encodePointer(pointer)}` } : schema;
}

// ajv follows an entry that is a bare `{ $ref }` straight to its target and compiles that
// target again outside the shared root; the `$comment` makes the entry a schema of its own,
// whose code calls the target's one function.
function entrySchema(at: SchemaRef): JsonObject {
  const schema = placedSchema(at);
  return Object.keys(schema).length === 1 && '$ref' in schema ? { ...schema, $comment: 'validator entry' } : schema;
}

/** JSON pointers in a `$ref` are URI fragments: `{`, `}` and the like are percent-encoded. */
function encodePointer(pointer: string): string {
  return encodeURI(pointer).replace(/#/g, '%23');
}

function contractAjv(model: ContractModel, entries: Entry[]): Ajv {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    // `required` names properties that allOf branches define; OpenAPI 3.1 writes nullable
    // fields as union types (["string", "null"]).
    strictRequired: false,
    allowUnionTypes: true,
    // Components keep one function each instead of being inlined into every user.
    inlineRefs: false,
    code: {
      source: true,
      esm: true,
      // One statement a line keeps the generated file reviewable in diffs.
      lines: true,
      optimize: true,
      // An expression the generated code evaluates for its format table; esmImports turns the
      // require into an import.
      formats: _`require("ajv-formats/dist/formats").fullFormats`,
    },
  });
  addFormats(ajv);
  ajv.addVocabulary([...schemaAnnotationKeywords, ...openApiRootFields, ...extensionKeywords(model.document)]);
  if ('$defs' in model.document) throw new Error(`${model.source}: the document root already has $defs`);
  // Each entry sits under its first export name.
  const $defs = Object.fromEntries(entries.map((e) => [e.exportNames[0]!, e.schema]));
  const compiled = structuredClone({ ...model.document, $defs });
  hintUniqueItemTypes(compiled);
  ajv.addSchema(compiled, contractUri(model.name));
  return ajv;
}

/** Every `x-` key anywhere in the document (x-assumption, x-machine, root extensions...). */
function extensionKeywords(document: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key.startsWith('x-')) found.add(key);
        walk(value);
      }
    }
  };
  walk(document);
  return [...found].sort();
}

/**
 * The oneOf and anyOf choices of each request part's validator, as its `unions` property: the
 * router words a union's error with them (runtime/union-errors.ts).
 */
function requestUnions(model: ContractModel, entries: Entry[], exports: OperationExports[]): string[] {
  const requestParts = new Set(exports.flatMap((op) => Object.values(op.parts)));
  const document = model.document as unknown as JsonObject;
  return entries.flatMap(({ exportNames, schema }) => {
    if (!exportNames.some((name) => requestParts.has(name))) return [];
    const unions = unionChoices(document, schema);
    return unions.length === 0 ? [] : [`${exportNames[0]!}.unions = ${JSON.stringify(unions)};`];
  });
}

// One export per entry: standalone code would repeat a function exported under two names.
function entryMapping(name: string, entries: Entry[]): Record<string, string> {
  return Object.fromEntries(entries.map((e) => [e.exportNames[0]!, `${contractUri(name)}#/$defs/${e.exportNames[0]!}`]));
}

/** The other names of shared entries, as aliases of the first. */
function aliases(entries: Entry[]): string[] {
  return entries.flatMap(({ exportNames: [first, ...others] }) => others.map((name) => `export const ${name} = ${first!};`));
}

// ajv's standalone code refers to its runtime helpers (and to our format table) with
// `require("module")` expressions even in ESM mode. Each distinct module becomes one namespace
// import, turned back into what `require` returns, so the `.default` and `.fullFormats` after it
// keep working. Loaders disagree on what a CommonJS module's namespace holds: node puts
// `module.exports` on `default`; vite, vitest and bundlers unwrap a module that sets
// `__esModule` (as TypeScript-compiled ajv does) and expose its exports directly.
const moduleExportsHelper = [
  'function moduleExports(namespace) {',
  '  return namespace.default?.__esModule || !namespace.__esModule ? namespace.default : namespace;',
  '}',
].join('\n');

function esmImports(code: string): string {
  const modules = new Map<string, string>();
  const body = code.replace(/require\("([^"]+)"\)/g, (_match, specifier: string) => {
    const local = `imported_${specifier.replace(/[^A-Za-z0-9]/g, '_')}`;
    modules.set(specifier, local);
    return local;
  });
  const sorted = [...modules].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const imports = sorted.map(([specifier, local]) => `import * as ${local}_namespace from "${specifier}.js";`);
  const bindings = sorted.map(([, local]) => `const ${local} = moduleExports(${local}_namespace);`);
  // "use strict" is implied by ESM; imports go first.
  const helpers = sorted.length ? [moduleExportsHelper, ...bindings] : [];
  return [...imports, ...helpers, body.replace(/^"use strict";\n?/, '')].join('\n');
}

function operationIndex(operations: OperationExports[]): string {
  return objectLiteral(operations.map((op) => [op.operation.operationId, objectLiteral([
    ...(['path', 'query', 'headers', 'body'] as const).flatMap((part): [string, string][] => {
      const name = op.parts[part];
      return name ? [[part, name]] : [];
    }),
    ['responses', objectLiteral(op.responses.map((r): [string, string] => [r.status, r.exportName]), '    ')],
  ], '  ')]));
}

function objectLiteral(pairs: [string, string][], indent = ''): string {
  if (pairs.length === 0) return '{}';
  const lines = pairs.map(([key, value]) => `${indent}  ${propertyKey(key)}: ${value},`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function propertyKey(key: string): string {
  return identifier.test(key) ? key : JSON.stringify(key);
}

function declarations(
  model: ContractModel, operations: OperationExports[], webhooks: { event: string; exports: OperationExports }[],
): string {
  const exportNames = [...operations, ...webhooks.map((w) => w.exports)].flatMap((op) => [
    ...Object.values(op.parts),
    ...op.responses.map((r) => r.exportName),
  ]);
  const operationType = (op: OperationExports) => {
    const parts = (['path', 'query', 'headers', 'body'] as const).map((part) =>
      op.parts[part] ? `readonly ${part}: Validator;` : `readonly ${part}?: undefined;`);
    const responses = op.responses.map((r) => `readonly ${JSON.stringify(r.status)}: Validator;`);
    return `{ ${parts.join(' ')} readonly responses: { ${responses.join(' ')}${responses.length ? ' ' : ''}} }`;
  };
  return [
    banner(model.source),
    "import type { ErrorObject } from 'ajv';",
    '',
    '/** An ajv validate function: true when valid; otherwise `errors` lists every failure. */',
    'export interface Validator {',
    '  (data: unknown): boolean;',
    '  errors?: ErrorObject[] | null;',
    '  /** A request part\'s oneOf and anyOf: where each applies (`*`: any item or key) and its branches in words. */',
    "  readonly unions?: readonly { readonly at: string; readonly keyword: 'oneOf' | 'anyOf'; readonly choices: readonly string[] }[];",
    '}',
    '',
    '/** The validators of one operation; parts it does not have are absent. */',
    'export interface OperationValidatorSet {',
    '  readonly path?: Validator;',
    '  readonly query?: Validator;',
    '  readonly headers?: Validator;',
    '  readonly body?: Validator;',
    '  readonly responses: { readonly [status: string]: Validator | undefined };',
    '}',
    '',
    ...exportNames.map((name) => `export declare const ${name}: Validator;`),
    '',
    'export declare const operationValidators: {',
    ...operations.map((op) => `  readonly ${op.operation.operationId}: ${operationType(op)};`),
    '};',
    '',
    'export type OperationId = keyof typeof operationValidators;',
    '',
    'export declare const webhookValidators: {',
    ...webhooks.map(({ event, exports }) => `  readonly ${JSON.stringify(event)}: ${exports.parts.body ? 'Validator' : 'undefined'};`),
    '};',
    '',
  ].join('\n');
}
