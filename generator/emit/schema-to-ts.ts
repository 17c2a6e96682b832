// JSON Schema 2020-12 → TypeScript type text. Pure: a schema (and the bundled document, for
// references into subschemas) in, the text of one type out; the caller declares it. Rules:
// - `$ref: '#/components/schemas/X'` names the component's type; a reference deeper into a
//   component (`…/ExchangeRoute/$defs/side`) is inlined, so no invented names appear.
// - `const` → a literal, `enum` → a union of literals, `type` → string/number/boolean/null/object/
//   array (integer → number; a list of types → their union); a string with `format: binary` or
//   `contentMediaType` → Blob (multipart file parts).
// - Objects: `properties` (optional `?` unless `required`), a `required` name without a property
//   becomes `name: unknown`; `additionalProperties: false` adds nothing, a schema adds an index
//   signature whose type also admits the known properties' types (TypeScript requires it); an
//   absent or `true` one adds `[key: string]: unknown` only when there are no known properties,
//   so described objects stay strict enough to catch typos.
// - Arrays: `items` → T[], `prefixItems` → a tuple (elements past `minItems` optional).
// - `allOf` → intersection, `oneOf`/`anyOf` → union. A bare `type` next to a reference or a
//   combinator that already types the value is left out (`type: [object, 'null']` with
//   `anyOf: [Ref, null]` is just `Ref | null`).
// - Validation-only keywords are ignored: `not`, `if`/`then`/`else`, formats other than binary,
//   bounds, patterns. The validators enforce them; a type cannot say "string of 3 to 8 chars".
import type { JsonObject, JsonValue } from '../load.js';
import { isObject, resolvePointer } from '../model.js';
import { pascalCase } from './file.js';

export interface SchemaToTsOptions {
  /** The bundled document: references into subschemas are resolved in it. */
  document?: JsonValue;
}

/** One member of an object type, as written inside `{ … }`. */
export interface MemberText {
  name: string;
  type: string;
  optional: boolean;
  description?: string | undefined;
  deprecated?: boolean | undefined;
}

const componentPrefix = '#/components/schemas/';
const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * What TypeScript refuses as the name of a type alias (`type class = …`, `type string = …`): its
 * keywords, strict mode's reserved words and its predefined types. A contract may well name a
 * schema `delete` or `object`.
 */
const reservedTypeNames = new Set(
  ('break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
    'import in instanceof new null return super switch this throw true try typeof var void while with implements interface ' +
    'let package private protected public static yield any unknown never number bigint boolean string symbol object undefined')
    .split(' '),
);

/**
 * The TypeScript type name of a component schema: the name itself when it is an identifier, else
 * its PascalCase (`operation-contract` → `OperationContract`); a reserved word is capitalised
 * (`class` → `Class`) and a name that starts with a digit gets a leading `_` (`3ds` → `_3ds`).
 */
export function typeName(componentName: string): string {
  const name = identifier.test(componentName) ? componentName : pascalCase(componentName);
  if (reservedTypeNames.has(name)) return pascalCase(name);
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

export function schemaToTs(schema: JsonValue, options: SchemaToTsOptions = {}): string {
  return render(new Converter(options.document ?? {}).convert(schema));
}

/** `{ a: T; 'b-c'?: U; }` with a JSDoc line per documented member. */
export function objectTypeText(members: MemberText[], indexType?: string): string {
  if (members.length === 0 && indexType === undefined) return 'Record<string, never>';
  const lines = members.map((m) => `${jsDoc(m.description, m.deprecated)}${propertyKey(m.name)}${m.optional ? '?' : ''}: ${m.type};`);
  if (indexType !== undefined) lines.push(`[key: string]: ${indexType};`);
  return `{\n${lines.map(indentLines).join('\n')}\n}`;
}

/** Indents every line of a member by two spaces: nested object types come out formatted. */
function indentLines(text: string): string {
  return text.split('\n').map((line) => (line === '' ? line : `  ${line}`)).join('\n');
}

/** A JSDoc comment (with a trailing newline), or '' when there is nothing to say. */
export function jsDoc(description: string | undefined, deprecated?: boolean): string {
  const lines = (description ?? '').trim().split('\n').map((l) => l.trimEnd().replace(/\*\//g, '*\\/'));
  const text = lines.filter((l, i) => l !== '' || i > 0);
  if (deprecated) text.push('@deprecated');
  if (text.length === 0) return '';
  if (text.length === 1) return `/** ${text[0]} */\n`;
  return `/**\n${text.map((l) => (l === '' ? ' *' : ` * ${l}`)).join('\n')}\n */\n`;
}

/** A property name as a key: bare when it is an identifier, quoted otherwise (`'filter[status]'`). */
export function propertyKey(name: string): string {
  return identifier.test(name) ? name : stringLiteral(name);
}

export function stringLiteral(value: string): string {
  return `'${JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

// Types are built as a small tree so parentheses are added only where precedence needs them.
type Ts =
  | { kind: 'atom'; text: string }
  | { kind: 'union'; members: Ts[] }
  | { kind: 'intersection'; members: Ts[] };

const unknownTs: Ts = { kind: 'atom', text: 'unknown' };
const neverTs: Ts = { kind: 'atom', text: 'never' };
const atom = (text: string): Ts => ({ kind: 'atom', text });

function render(type: Ts): string {
  if (type.kind === 'atom') return type.text;
  if (type.kind === 'union') return type.members.map(render).join(' | ');
  return type.members.map((m) => (m.kind === 'union' ? `(${render(m)})` : render(m))).join(' & ');
}

function union(members: Ts[]): Ts {
  const flat = dedupe(members.flatMap((m) => (m.kind === 'union' ? m.members : [m])));
  if (flat.some((m) => render(m) === 'unknown')) return unknownTs;
  const kept = flat.filter((m) => render(m) !== 'never');
  if (kept.length === 0) return neverTs;
  return kept.length === 1 ? kept[0]! : { kind: 'union', members: kept };
}

function intersection(members: Ts[]): Ts {
  const flat = dedupe(members.flatMap((m) => (m.kind === 'intersection' ? m.members : [m])));
  if (flat.some((m) => render(m) === 'never')) return neverTs;
  const kept = flat.filter((m) => render(m) !== 'unknown');
  if (kept.length === 0) return unknownTs;
  return kept.length === 1 ? kept[0]! : { kind: 'intersection', members: kept };
}

function dedupe(members: Ts[]): Ts[] {
  const seen = new Set<string>();
  return members.filter((m) => {
    const text = render(m);
    if (seen.has(text)) return false;
    seen.add(text);
    return true;
  });
}

/** Keywords that shape a value beyond its bare `type`. */
const structuralKeywords = ['properties', 'additionalProperties', 'required', 'items', 'prefixItems', 'enum', 'const'];

class Converter {
  /** Pointers of the subschema references being inlined, to stop on a cycle. */
  private readonly inlining: string[] = [];

  constructor(private readonly document: JsonValue) {}

  convert(schema: JsonValue): Ts {
    if (schema === true) return unknownTs;
    if (schema === false) return neverTs;
    if (!isObject(schema)) return unknownTs;
    const typed: Ts[] = [];
    if (typeof schema.$ref === 'string') typed.push(this.reference(schema.$ref));
    if (Array.isArray(schema.allOf)) typed.push(intersection(schema.allOf.map((s) => this.convert(s))));
    for (const key of ['oneOf', 'anyOf']) {
      const members = schema[key];
      if (Array.isArray(members)) typed.push(union(members.map((s) => this.convert(s))));
    }
    const combined = intersection(typed);
    const own = this.ownType(schema);
    if (own === undefined) return combined;
    const bare = !structuralKeywords.some((k) => k in schema);
    if (bare && typed.length > 0 && render(combined) !== 'unknown') return combined;
    return intersection([...typed, own]);
  }

  private reference(ref: string): Ts {
    const tokens = ref.startsWith(componentPrefix) ? ref.slice(componentPrefix.length).split('/') : [];
    if (tokens.length === 1) return atom(typeName(decodeToken(tokens[0]!)));
    if (!ref.startsWith('#/')) throw new Error(`cannot type $ref ${ref}: only local references are supported`);
    const pointer = ref.slice(1).split('/').map(decodeURIComponent).join('/');
    if (this.inlining.includes(pointer)) return unknownTs;
    const target = resolvePointer(this.document, pointer);
    if (target === null) throw new Error(`cannot type $ref ${ref}: nothing at that pointer`);
    this.inlining.push(pointer);
    try {
      return this.convert(target);
    } finally {
      this.inlining.pop();
    }
  }

  /** The type said by the schema's own keywords, or undefined when they say nothing. */
  private ownType(schema: JsonObject): Ts | undefined {
    if ('const' in schema) return atom(literal(schema.const ?? null));
    if (Array.isArray(schema.enum)) return union(schema.enum.map((v) => atom(literal(v))));
    const types = typesOf(schema);
    if (types.length === 0) return isBinary(schema) ? atom('Blob') : undefined;
    return union(types.map((t) => this.typeOf(t, schema)));
  }

  private typeOf(type: string, schema: JsonObject): Ts {
    switch (type) {
      case 'string': return atom(isBinary(schema) ? 'Blob' : 'string');
      case 'integer':
      case 'number': return atom('number');
      case 'boolean': return atom('boolean');
      case 'null': return atom('null');
      case 'object': return this.objectType(schema);
      case 'array': return this.arrayType(schema);
      default: return unknownTs;
    }
  }

  private objectType(schema: JsonObject): Ts {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
    const additional = schema.additionalProperties;
    const members: (MemberText & { ts: Ts })[] = Object.entries(properties).map(([name, property]) => {
      const ts = this.convert(property);
      const annotations = isObject(property) ? property : {};
      return {
        name,
        ts,
        type: render(ts),
        optional: !required.has(name),
        description: typeof annotations.description === 'string' ? annotations.description : undefined,
        deprecated: annotations.deprecated === true,
      };
    });
    // A required name without a property schema: whatever extra properties may be, or unknown.
    const extraType = isObject(additional) ? this.convert(additional) : unknownTs;
    for (const name of required) {
      if (!(name in properties)) members.push({ name, ts: extraType, type: render(extraType), optional: false });
    }
    let index: Ts | undefined;
    if (isObject(additional)) {
      const optional = members.some((m) => m.optional) ? [atom('undefined')] : [];
      index = union([extraType, ...members.map((m) => m.ts), ...optional]);
    } else if (additional !== false && members.length === 0) {
      index = unknownTs;
    }
    return atom(objectTypeText(members, index === undefined ? undefined : render(index)));
  }

  private arrayType(schema: JsonObject): Ts {
    if (Array.isArray(schema.prefixItems)) {
      const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const elements = schema.prefixItems.map((s, i) => `${render(this.convert(s))}${i >= minItems ? '?' : ''}`);
      if (schema.items !== false) elements.push(`...${arrayOf(schema.items === undefined ? unknownTs : this.convert(schema.items))}`);
      return atom(`[${elements.join(', ')}]`);
    }
    return atom(arrayOf(schema.items === undefined ? unknownTs : this.convert(schema.items)));
  }
}

function arrayOf(element: Ts): string {
  return element.kind === 'atom' ? `${element.text}[]` : `(${render(element)})[]`;
}

function typesOf(schema: JsonObject): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t) => typeof t === 'string');
  if ('properties' in schema || 'additionalProperties' in schema || 'required' in schema) return ['object'];
  if ('items' in schema || 'prefixItems' in schema) return ['array'];
  return [];
}

function isBinary(schema: JsonObject): boolean {
  return schema.format === 'binary' || typeof schema.contentMediaType === 'string';
}

function literal(value: JsonValue): string {
  if (typeof value === 'string') return stringLiteral(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (isObject(value)) return `{ ${Object.entries(value).map(([k, v]) => `${propertyKey(k)}: ${literal(v)}`).join('; ')} }`;
  return String(value);
}

/** A JSON pointer token of a reference: URI-decoded, then `~1` → `/` and `~0` → `~`. */
function decodeToken(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
}
