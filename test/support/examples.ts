// Finds every example in a contract document, paired with the JSON pointer of the schema it
// must satisfy: media-type, parameter and header examples (`example` and `examples.*.value`)
// and examples written inside schema objects (`example`, and JSON Schema's `examples` array).
import { isObject, pointerToken, type Json, type JsonObject } from './contracts.js';

export interface ExampleCase {
  /** Pointer of the example itself, for the failure message. */
  at: string;
  /** Pointer of the schema the example must satisfy. */
  schemaPointer: string;
  value: Json;
}

// Keys whose values are maps of names to schemas, or lists of schemas.
const schemaMapKeys = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const schemaListKeys = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const schemaKeys = new Set([
  'items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains',
  'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema',
]);

/** Examples inside one schema object and its subschemas. */
export function schemaExamples(schema: Json, pointer: string): ExampleCase[] {
  if (!isObject(schema)) return [];
  const found: ExampleCase[] = [];
  if ('example' in schema) {
    found.push({ at: `${pointer}/example`, schemaPointer: pointer, value: schema.example ?? null });
  }
  if (Array.isArray(schema.examples)) {
    schema.examples.forEach((value, index) => {
      found.push({ at: `${pointer}/examples/${index}`, schemaPointer: pointer, value });
    });
  }
  for (const [key, value] of Object.entries(schema)) {
    const here = `${pointer}/${pointerToken(key)}`;
    if (schemaMapKeys.has(key) && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) {
        found.push(...schemaExamples(sub, `${here}/${pointerToken(name)}`));
      }
    } else if (schemaListKeys.has(key) && Array.isArray(value)) {
      value.forEach((sub, index) => found.push(...schemaExamples(sub, `${here}/${index}`)));
    } else if (schemaKeys.has(key)) {
      found.push(...schemaExamples(value, here));
    }
  }
  return found;
}

/** Examples of an object that carries a `schema` (media type, parameter, header). */
function carrierExamples(carrier: JsonObject, pointer: string): ExampleCase[] {
  const schemaPointer = `${pointer}/schema`;
  const found: ExampleCase[] = [];
  if ('example' in carrier) {
    found.push({ at: `${pointer}/example`, schemaPointer, value: carrier.example ?? null });
  }
  if (isObject(carrier.examples)) {
    for (const [name, example] of Object.entries(carrier.examples)) {
      if (isObject(example) && 'value' in example) {
        found.push({ at: `${pointer}/examples/${pointerToken(name)}/value`, schemaPointer, value: example.value ?? null });
      }
    }
  }
  return [...found, ...schemaExamples(carrier.schema ?? null, schemaPointer)];
}

/**
 * Every example of an OpenAPI document. Walks the whole tree; wherever an object holds a
 * `schema` object it is an example carrier, and `components/schemas` entries are schemas.
 */
export function documentExamples(doc: JsonObject): ExampleCase[] {
  const found: ExampleCase[] = [];
  const walk = (node: Json, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${pointer}/${index}`));
      return;
    }
    if (!isObject(node)) return;
    if (isObject(node.schema)) {
      found.push(...carrierExamples(node, pointer));
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'schema' || key === 'examples' || key === 'example') continue;
      const here = `${pointer}/${pointerToken(key)}`;
      if (pointer === '/components' && key === 'schemas' && isObject(value)) {
        for (const [name, schema] of Object.entries(value)) {
          found.push(...schemaExamples(schema, `${here}/${pointerToken(name)}`));
        }
        continue;
      }
      walk(value, here);
    }
  };
  walk(doc, '');
  return found;
}
