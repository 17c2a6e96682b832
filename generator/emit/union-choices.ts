// The choices of every oneOf and anyOf a request part's schema holds, read from the contract at
// generate time. A validator's "must match exactly one schema in oneOf" names neither the
// field's alternatives nor what each one needs; when no error of a branch says what is wrong,
// the router answers with these choices instead (generator/runtime/union-errors.ts).
import type { JsonObject, JsonValue } from '../load.js';
import { isObject, resolveLocalRef, token } from '../model.js';

/** One union: where it applies and a description of each branch, in the contract's order. */
export interface UnionChoices {
  /** The instancePath it validates, `*` standing for any array item or object key. */
  at: string;
  keyword: 'oneOf' | 'anyOf';
  choices: string[];
}

const unionKeywords = ['oneOf', 'anyOf'] as const;

export function unionChoices(document: JsonObject, schema: JsonObject): UnionChoices[] {
  const found: UnionChoices[] = [];
  const walk = (node: JsonValue | undefined, at: string, refsOnPath: ReadonlySet<string>): void => {
    if (!isObject(node)) return;
    if (typeof node['$ref'] === 'string') {
      // A recursive schema is walked once along each path.
      if (!refsOnPath.has(node['$ref'])) walk(resolveLocalRef(document, node['$ref']), at, new Set([...refsOnPath, node['$ref']]));
    }
    for (const keyword of unionKeywords) {
      const branches = node[keyword];
      if (!Array.isArray(branches)) continue;
      if (!found.some((union) => union.at === at && union.keyword === keyword)) {
        found.push({ at, keyword, choices: branches.map((branch) => describe(document, branch)) });
      }
      for (const branch of branches) walk(branch, at, refsOnPath);
    }
    const parts = node['allOf'];
    if (Array.isArray(parts)) for (const part of parts) walk(part, at, refsOnPath);
    walk(node['then'], at, refsOnPath);
    walk(node['else'], at, refsOnPath);
    const properties = node['properties'];
    if (isObject(properties)) for (const [name, property] of Object.entries(properties)) walk(property, `${at}/${token(name)}`, refsOnPath);
    const prefixItems = node['prefixItems'];
    if (Array.isArray(prefixItems)) prefixItems.forEach((item, index) => walk(item, `${at}/${index}`, refsOnPath));
    walk(node['items'], `${at}/*`, refsOnPath);
    walk(node['additionalProperties'], `${at}/*`, refsOnPath);
    const patternProperties = node['patternProperties'];
    if (isObject(patternProperties)) for (const property of Object.values(patternProperties)) walk(property, `${at}/*`, refsOnPath);
  };
  walk(schema, '', new Set());
  return found;
}

/**
 * A branch in words, from what tells it apart: its constant, its type, format or pattern, and
 * the properties it requires (`an object with route_id and amount`, `an integer`, `null`).
 */
function describe(document: JsonObject, branch: JsonValue): string {
  const schema = flatten(document, branch);
  if ('const' in schema) return JSON.stringify(schema['const']);
  if (Array.isArray(schema['enum'])) return schema['enum'].map((value) => JSON.stringify(value)).join(' or ');
  const required = Array.isArray(schema['required']) ? schema['required'].filter((name) => typeof name === 'string') : [];
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const declared = typeof schema['type'] === 'string' ? [schema['type']] : Array.isArray(schema['type']) ? schema['type'].map(String) : [];
  const types = declared.length === 0 && (required.length > 0 || Object.keys(properties).length > 0) ? ['object'] : declared;
  let text = types.length === 0 ? 'a value' : types.map(withArticle).join(' or ');
  if (typeof schema['format'] === 'string') text = `a valid ${schema['format']}`;
  if (typeof schema['pattern'] === 'string') text = `${types.length === 0 ? 'a string' : text} matching "${schema['pattern']}"`;
  if (required.length > 0) {
    const named = required.map((name) => {
      const property = properties[name];
      return isObject(property) && 'const' in property ? `${name} ${JSON.stringify(property['const'])}` : name;
    });
    text += ` with ${inWords(named)}`;
  }
  return text;
}

/** A branch with its `$ref` followed and its `allOf` parts merged (what describe reads of it). */
function flatten(document: JsonObject, node: JsonValue | undefined, depth = 0): JsonObject {
  if (!isObject(node) || depth > 16) return {};
  const target = typeof node['$ref'] === 'string' ? flatten(document, resolveLocalRef(document, node['$ref']), depth + 1) : {};
  const parts = Array.isArray(node['allOf']) ? node['allOf'].map((part) => flatten(document, part, depth + 1)) : [];
  const merged: JsonObject = { ...target };
  for (const part of [...parts, node]) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'required' && Array.isArray(value) && Array.isArray(merged['required'])) merged['required'] = [...new Set([...merged['required'], ...value])];
      else if (key === 'properties' && isObject(value) && isObject(merged['properties'])) merged['properties'] = { ...merged['properties'], ...value };
      else if (key !== '$ref' && key !== 'allOf') merged[key] = value;
    }
  }
  return merged;
}

function withArticle(type: string): string {
  if (type === 'null') return 'null';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function inWords(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}
