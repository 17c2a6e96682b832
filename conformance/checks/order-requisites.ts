// Requisites for an order on a route, built from the route's own rules rather than one example
// address: its capabilities name the fields each side needs (`requisites.from`, `requisites.to`)
// and may publish their JSON Schema (`requisites.schema`: each field's format and examples that
// pass). Each needed field takes the first of the schema's examples that fits the field's
// schema, else the contract example's value for that field if it fits; a field no value fits
// makes the route unusable, with the reason.
import Ajv2020Module from 'ajv/dist/2020.js';
import type { RouteCapabilities } from '../../generated/exchange-v3/types.js';

// ajv is CommonJS with a default export; under NodeNext it sits on `.default`.
const Ajv2020 = Ajv2020Module.default;
// Not strict: a server's schema may carry annotations and formats of its own.
const ajv = new Ajv2020({ strict: false, validateFormats: false });

type FieldSchema = { examples?: unknown[] } & Record<string, unknown>;

export type BuiltRequisites = { ok: true; requisites: Record<string, string> } | { ok: false; reason: string };

export function buildRequisites(capabilities: RouteCapabilities, contractExample: Readonly<Record<string, unknown>>): BuiltRequisites {
  const { from = [], to = [], schema } = capabilities.requisites ?? {};
  const properties = propertiesOf(schema);
  const requisites: Record<string, string> = {};
  for (const field of new Set([...from, ...to])) {
    const fieldSchema = properties[field] ?? {};
    const candidates = [...(Array.isArray(fieldSchema.examples) ? fieldSchema.examples : []), contractExample[field]];
    const value = candidates.find((candidate): candidate is string => typeof candidate === 'string' && fits(fieldSchema, candidate));
    if (value === undefined) return { ok: false, reason: `no example value fits ${field}${describeRule(fieldSchema)}` };
    requisites[field] = value;
  }
  return { ok: true, requisites };
}

function propertiesOf(schema: unknown): Record<string, FieldSchema> {
  const properties = typeof schema === 'object' && schema !== null ? (schema as { properties?: unknown }).properties : undefined;
  return typeof properties === 'object' && properties !== null ? (properties as Record<string, FieldSchema>) : {};
}

function fits(schema: FieldSchema, value: string): boolean {
  try {
    return ajv.validate(schema, value);
  } catch {
    return false; // a schema ajv cannot compile proves nothing about the value
  }
}

function describeRule(schema: FieldSchema): string {
  return typeof schema.pattern === 'string' ? ` (pattern ${schema.pattern})` : '';
}
