// The request examples of a contract, operation by operation, read from its bundled document
// (generated/<contract>/openapi.yaml, references resolved): each parameter's example and each
// body example (a media type's `example` or each of its named `examples`, else its schema's).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { isObject, repoRoot, type Json, type JsonObject } from './contracts.js';

export type ContractFile = 'exchange-v3' | 'deposit-v1' | 'sandbox-control';

export interface RequestExamples {
  operationId: string;
  /** Parameter examples by location and name. */
  path: Record<string, Json>;
  query: Record<string, Json>;
  headers: Record<string, Json>;
  /** Body examples by name (`example` when the media type has a single one); empty without a body. */
  bodies: Record<string, { contentType: string; value: Json }>;
  /** Media types of the operation's success (2xx) answers. */
  successTypes: string[];
}

export function requestExamples(contract: ContractFile): RequestExamples[] {
  const doc = parse(readFileSync(join(repoRoot, 'generated', contract, 'openapi.yaml'), 'utf8'), { maxAliasCount: -1 }) as JsonObject;
  const resolve = (node: Json | undefined): JsonObject => {
    let current: Json | undefined = node;
    while (isObject(current) && typeof current.$ref === 'string') {
      current = current.$ref.slice(2).split('/').reduce<Json | undefined>((at, key) => (isObject(at) ? at[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), doc);
    }
    return isObject(current) ? current : {};
  };
  const found: RequestExamples[] = [];
  for (const item of Object.values(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isObject(operation) || typeof operation.operationId !== 'string') continue;
      const successTypes = Object.entries(isObject(operation.responses) ? operation.responses : {})
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([, response]) => Object.keys(isObject(resolve(response).content) ? (resolve(response).content as JsonObject) : {}));
      const examples: RequestExamples = { operationId: operation.operationId, path: {}, query: {}, headers: {}, bodies: {}, successTypes };
      const parameters = [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(operation.parameters) ? operation.parameters : [])];
      for (const raw of parameters) {
        const parameter = resolve(raw);
        const value = exampleOf(parameter) ?? resolve(parameter.schema).example;
        if (value === undefined) continue;
        const place = parameter.in === 'path' ? examples.path : parameter.in === 'query' ? examples.query : parameter.in === 'header' ? examples.headers : undefined;
        if (place !== undefined) place[String(parameter.name)] = value;
      }
      const content = resolve(operation.requestBody).content;
      for (const [contentType, media] of Object.entries(isObject(content) ? content : {})) {
        const resolved = resolve(media);
        if ('example' in resolved) examples.bodies.example = { contentType, value: resolved.example ?? null };
        for (const [name, named] of Object.entries(isObject(resolved.examples) ? resolved.examples : {})) {
          if (isObject(named) && 'value' in named) examples.bodies[name] = { contentType, value: named.value ?? null };
        }
        // Else the example of the body's schema.
        const schema = resolve(resolved.schema);
        if (Object.keys(examples.bodies).length === 0 && 'example' in schema) examples.bodies.example = { contentType, value: schema.example ?? null };
      }
      found.push(examples);
    }
  }
  return found;
}

function exampleOf(parameter: JsonObject): Json | undefined {
  if ('example' in parameter) return parameter.example ?? null;
  const first = Object.values(isObject(parameter.examples) ? parameter.examples : {})[0];
  return isObject(first) && 'value' in first ? (first.value ?? null) : undefined;
}
