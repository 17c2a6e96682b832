// ajv checks `uniqueItems` with one lookup an item when the schema's `items` names a scalar
// type, and otherwise compares every pair of items (n² deep comparisons). It does not look
// through a `$ref`, so an array of a referenced string enum (webhook event types, scopes) was
// checked pair by pair: a 170 KB list of distinct strings kept the mock busy for seconds, every
// tenant with it. The schemas ajv compiles get the referenced scalar type written beside such a
// `$ref`: the same values pass and fail (the type only repeats the referenced schema's, whose
// error message is the same), and the check becomes linear. The contract itself is not changed.
import type { JsonObject, JsonValue } from '../load.js';
import { isObject, resolveLocalRef } from '../model.js';

const scalarTypes = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/** Writes, in place, the scalar type of a referenced item schema beside every uniqueItems array's `$ref`. */
export function hintUniqueItemTypes(openApiDocument: object): void {
  // A parsed contract: JSON values all the way down, whatever its OpenAPI typing says.
  const document = openApiDocument as JsonObject;
  const visit = (node: JsonValue): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!isObject(node)) return;
    const items = node.items;
    if (node.uniqueItems === true && isObject(items) && items.type === undefined && typeof items.$ref === 'string') {
      const type = scalarTypeOf(document, items.$ref);
      if (type !== undefined) items.type = type;
    }
    Object.values(node).forEach(visit);
  };
  visit(document);
}

/** The `type` of a local `$ref`'s schema when every type it allows is a scalar one. */
function scalarTypeOf(document: JsonObject, ref: string): JsonValue | undefined {
  const target = resolveLocalRef(document, ref);
  const type = isObject(target) ? target.type : undefined;
  const types = Array.isArray(type) ? type : [type];
  return types.length > 0 && types.every((t) => typeof t === 'string' && scalarTypes.has(t)) ? type : undefined;
}
