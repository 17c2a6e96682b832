// Loads one OpenAPI contract: swagger-parser validates it (every $ref must resolve), then bundles
// it into one document whose references all point inside it (`#/components/...`), keeping the
// component names. The catalog schemas carry no `$id` (their relative references resolve against
// their files, for every tool alike); their `$schema` is stripped from the bundle, where the
// document's own dialect applies, and so is any `$id` a contract author adds to an inlined schema.
import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { parse } from 'yaml';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A contract that does not load: which file, where in it (JSON pointer), and why. */
export class ContractError extends Error {
  constructor(
    readonly file: string,
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(`${file}#${pointer}: ${reason}`);
    this.name = 'ContractError';
  }
}

export interface LoadedContract {
  /** File name without `.openapi.yaml`, for example `exchange-v3`; names the output folder. */
  name: string;
  /** Path relative to the repository root, for banners and messages. */
  source: string;
  document: OpenAPIV3_1.Document;
}

export async function loadContract(path: string, repoRoot: string): Promise<LoadedContract> {
  const source = relative(repoRoot, path);
  try {
    await SwaggerParser.validate(path);
  } catch (error) {
    throw validationError(source, path, error);
  }
  const bundled = (await SwaggerParser.bundle(path)) as OpenAPIV3_1.Document;
  stripNestedSchemaIds(bundled as unknown as JsonValue, true);
  return { name: basename(path).replace(/\.openapi\.ya?ml$/, ''), source, document: bundled };
}

function stripNestedSchemaIds(node: JsonValue, atRoot: boolean): void {
  if (Array.isArray(node)) {
    for (const item of node) stripNestedSchemaIds(item, false);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  if (!atRoot) {
    delete node.$id;
    delete node.$schema;
  }
  for (const value of Object.values(node)) stripNestedSchemaIds(value, false);
}

/**
 * swagger-parser reports schema violations as "#/paths/... must ..." lines (the pointer is where
 * the problem is) and a dangling reference as 'Missing $ref pointer "#/..."' (the pointer is the
 * missing target, so we look up the node that holds that $ref).
 */
function validationError(source: string, path: string, error: unknown): ContractError {
  const message = error instanceof Error ? error.message : String(error);
  const missing = /Missing \$ref pointer "([^"]+)"/.exec(message)?.[1];
  if (missing !== undefined) {
    // Parsed again only on this error path: the happy path leaves parsing to swagger-parser.
    const raw = parse(readFileSync(path, 'utf8'), { maxAliasCount: -1 }) as JsonValue;
    return new ContractError(source, findRef(raw, missing, '') ?? '', `$ref "${missing}" does not resolve`);
  }
  // A YAML syntax error: "Error parsing <file>: <reason> (line:column)" and a code excerpt.
  const syntax = /^Error parsing .+?: (.+)$/m.exec(message)?.[1];
  if (syntax !== undefined) return new ContractError(source, '', syntax);
  // Schema violations: a header line, then "#/pointer must ..." lines.
  const [header = message, ...details] = message.split('\n').map((l) => l.trim()).filter(Boolean);
  const pointer = /^#(\/\S*)/.exec(details.find((l) => l.startsWith('#/')) ?? '')?.[1] ?? '';
  const reasons = details.length > 0 ? [...new Set(details)].slice(0, 5) : [header];
  return new ContractError(source, pointer, reasons.join('; '));
}

/** JSON pointer of the first object whose `$ref` is `ref`. */
function findRef(node: JsonValue, ref: string, pointer: string): string | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  if (!Array.isArray(node) && node.$ref === ref) return pointer;
  const entries: [string, JsonValue][] = Array.isArray(node) ? node.map((v, i) => [String(i), v]) : Object.entries(node);
  for (const [key, value] of entries) {
    const found = findRef(value, ref, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
