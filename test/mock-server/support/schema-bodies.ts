// Request bodies derived from an operation's JSON Schema (the bundled contract): a value of the
// schema's shape (right types, enums, bounds and patterns where it can), then one mutation a
// careless or hostile client makes: a required field dropped, a field of the wrong type, an
// unknown field, a huge or exotic string, a prototype key, or the wrong top-level type.
import fc from 'fast-check';
import { bundledDocument, type BundledContract } from '../../../mock-server/bundled-contracts.js';
import type { RouteDefinition } from '../../../generated/runtime/router-runtime.js';
import type { FamilyName } from './contract.js';

type Schema = Record<string, unknown>;

const contractOf: Record<FamilyName, BundledContract> = { v3: 'exchange-v3', v1: 'deposit-v1', control: 'sandbox-control' };

function resolve(document: Schema, schema: unknown): Schema {
  let node = schema;
  for (let hops = 0; isSchema(node) && typeof node.$ref === 'string' && hops < 32; hops += 1) {
    node = node.$ref.slice(2).split('/').reduce<unknown>((at, key) => (isSchema(at) ? at[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), document);
  }
  return isSchema(node) ? node : {};
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON request body schema of an operation, or undefined when it takes none. */
export function requestBodySchema(family: FamilyName, route: RouteDefinition): { document: Schema; schema: Schema } | undefined {
  if (route.body === undefined || !/json/.test(route.body.contentType)) return undefined;
  const document = bundledDocument(contractOf[family]);
  const paths = document.paths as Record<string, Record<string, Schema>>;
  const operation = paths[route.path]?.[route.method];
  const body = resolve(document, operation?.requestBody);
  const media = (body.content as Record<string, Schema> | undefined)?.[route.body.contentType];
  return media?.schema === undefined ? undefined : { document, schema: resolve(document, media.schema) };
}

const formats: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid(),
  'date-time': fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  date: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  email: fc.emailAddress(),
  uri: fc.webUrl(),
  ipv4: fc.ipV4(),
  ipv6: fc.ipV6(),
};

/** A value of the schema's shape (best effort: the mutations matter more than exact validity). */
function valueOf(document: Schema, raw: unknown, depth: number): fc.Arbitrary<unknown> {
  const schema = resolve(document, raw);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) return fc.oneof(...branches.map((b) => valueOf(document, mergeSiblings(schema, key, b), depth)));
  }
  if (Array.isArray(schema.allOf)) return valueOf(document, mergeAll(document, schema), depth);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (depth > 4) return fc.constant(null);
  switch (type) {
    case 'string': {
      if (typeof schema.format === 'string' && formats[schema.format] !== undefined) return formats[schema.format]!;
      if (typeof schema.pattern === 'string') {
        try {
          return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= 200);
        } catch {
          // a pattern fast-check cannot invert: any string
        }
      }
      return fc.string({ minLength: Number(schema.minLength ?? 0), maxLength: Math.min(Number(schema.maxLength ?? 24), 64) });
    }
    case 'integer':
      return fc.integer({ min: Number(schema.minimum ?? -1000), max: Number(schema.maximum ?? 1_000_000) });
    case 'number':
      return fc.double({ min: Number(schema.minimum ?? -1000), max: Number(schema.maximum ?? 1_000_000), noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueOf(document, schema.items ?? {}, depth + 1), { minLength: Number(schema.minItems ?? 0), maxLength: Math.min(Number(schema.maxItems ?? 3), 3) });
    case 'object':
    case undefined: {
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      const required = new Set((schema.required ?? []) as string[]);
      if (Object.keys(properties).length === 0) return type === undefined ? fc.jsonValue({ maxDepth: 1 }) : fc.constant({});
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, valueOf(document, property, depth + 1)])),
        { requiredKeys: [...required].filter((name) => name in properties) },
      );
    }
    default:
      return fc.constant(null);
  }
}

/** A oneOf/anyOf branch with the properties written beside the combinator. */
function mergeSiblings(schema: Schema, key: string, branch: unknown): Schema {
  const { [key]: _branches, ...siblings } = schema;
  return Object.keys(siblings).length === 0 ? (branch as Schema) : { allOf: [siblings, branch] };
}

function mergeAll(document: Schema, schema: Schema): Schema {
  const { allOf, ...rest } = schema;
  const parts = [rest, ...(allOf as unknown[]).map((part) => resolve(document, part))].map((part) => (Array.isArray(part.allOf) ? mergeAll(document, part) : part));
  return {
    ...Object.assign({}, ...parts),
    properties: Object.assign({}, ...parts.map((part) => part.properties ?? {})),
    required: parts.flatMap((part) => (part.required ?? []) as string[]),
  };
}

const hugeString = 'x'.repeat(20_000);
const exotic = fc.constantFrom('😀'.repeat(50), '\u202e\u0000\uffff', 'Ω≈ç√∫˜µ≤≥÷', '\ud800', '<script>alert(1)</script>', "' OR 1=1 --", '../../etc/passwd');
const wrongTyped = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}), fc.string({ maxLength: 8 }), fc.constant('1e999'));

type Mutation = (value: Record<string, unknown>, key: string | undefined) => string;

const mutations: fc.Arbitrary<{ name: string; apply: Mutation }>[] = [
  fc.constant({ name: 'none', apply: (value) => JSON.stringify(value) }),
  fc.constant({ name: 'drop a field', apply: (value, key) => JSON.stringify(omit(value, key)) }),
  wrongTyped.map((wrong) => ({ name: 'wrong type', apply: (value, key) => JSON.stringify(key === undefined ? wrong : { ...value, [key]: wrong }) })),
  fc.string({ minLength: 1, maxLength: 12 }).map((extra) => ({ name: 'unknown field', apply: (value) => JSON.stringify({ ...value, [`x_${extra}`]: extra }) })),
  fc.constant({ name: 'huge string', apply: (value, key) => JSON.stringify({ ...value, [key ?? 'name']: hugeString }) }),
  exotic.map((text) => ({ name: 'exotic string', apply: (value, key) => JSON.stringify({ ...value, [key ?? 'name']: text }) })),
  fc.constantFrom('__proto__', 'constructor', 'prototype').map((proto) => ({
    name: `${proto} key`,
    // Written as text: JSON.stringify drops a __proto__ own key set through an object literal.
    apply: (value) => `{"${proto}":{"polluted":true,"prototype":{"polluted":true}}${Object.keys(value).length > 0 ? `,${JSON.stringify(value).slice(1)}` : '}'}`,
  })),
  fc.constantFrom('[]', '"text"', '42', 'null', 'true').map((top) => ({ name: 'wrong top-level type', apply: () => top })),
];

function omit(value: Record<string, unknown>, key: string | undefined): Record<string, unknown> {
  if (key === undefined) return value;
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

/** JSON texts of the operation's body schema with one mutation each; undefined for an operation without a JSON body. */
export function schemaBodies(family: FamilyName, route: RouteDefinition): fc.Arbitrary<string> | undefined {
  const found = requestBodySchema(family, route);
  if (found === undefined) return undefined;
  return fc
    .tuple(valueOf(found.document, found.schema, 0), fc.oneof(...mutations), fc.nat())
    .map(([value, mutation, pick]) => {
      const object = isSchema(value) ? value : {};
      const keys = Object.keys(object);
      const key = keys.length === 0 ? undefined : keys[pick % keys.length];
      return isSchema(value) || mutation.name !== 'none' ? mutation.apply(object, key) : JSON.stringify(value);
    });
}
