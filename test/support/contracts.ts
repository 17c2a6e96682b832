// Loads the contracts as plain data for the contract tests: the OpenAPI documents (YAML with
// anchors and merge keys), the catalog schemas of contracts/schemas and the state machines.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const contractsDir = join(repoRoot, 'contracts');

/**
 * Every OpenAPI contract, by the file that holds it: the service's two API families and the
 * mock server's own sandbox control API.
 */
export const apiContracts = {
  v3: 'exchange-v3.openapi.yaml',
  v1: 'deposit-v1.openapi.yaml',
  control: 'sandbox-control.openapi.yaml',
} as const;
/** Any contract of `apiContracts`. */
export type ContractKey = keyof typeof apiContracts;
/**
 * The service's two API families (the family column of endpoints.tsv, the webhook event
 * families). The control API is the mock's own, so it is a contract but not a family.
 */
export type Family = Exclude<ContractKey, 'control'>;

/**
 * Base URI of contracts/ for ajv: each file is registered under it by its path, so relative refs
 * (`./schemas/x.json`, `pagination.v1.json`) resolve as they do between the files on disk.
 */
export const contractsBaseUri = 'https://exchange-api-kit.dev/contracts/';

/** The URI a catalog schema (`contracts/schemas/<file>`) is registered under. */
export function catalogSchemaUri(file: string): string {
  return `${contractsBaseUri}schemas/${file}`;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readYaml(path: string): Json {
  // Unlimited aliases: the contracts share header sets through anchors. No merge keys (`<<`),
  // as for swagger-parser's loader, which does not honour them.
  return parse(readFileSync(path, 'utf8'), { maxAliasCount: -1 }) as Json;
}

export function loadContract(key: ContractKey): JsonObject {
  const doc = readYaml(join(contractsDir, apiContracts[key]));
  if (!isObject(doc)) throw new Error(`${apiContracts[key]} is not a YAML mapping`);
  return doc;
}

export interface CatalogSchema {
  key: string;
  file: string;
  schema: JsonObject;
}

export function loadCatalogSchemas(): CatalogSchema[] {
  const dir = join(contractsDir, 'schemas');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const schema = JSON.parse(readFileSync(join(dir, file), 'utf8')) as JsonObject;
      return { key: file.replace(/\.json$/, ''), file, schema };
    });
}

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One operation of a contract; `family` is the contract's key (a Family unless told otherwise). */
export interface Operation<K extends ContractKey = Family> {
  family: K;
  method: string;
  path: string;
  operation: JsonObject;
}

/** Every operation of a contract's `paths`, in document order. */
export function operationsOf<K extends ContractKey>(family: K, doc: JsonObject = loadContract(family)): Operation<K>[] {
  const paths = isObject(doc.paths) ? doc.paths : {};
  return Object.entries(paths).flatMap(([path, item]) =>
    httpMethods.flatMap((method) => {
      const operation = isObject(item) ? item[method] : undefined;
      return isObject(operation) ? [{ family, method: method.toUpperCase(), path, operation }] : [];
    }),
  );
}

/** JSON Pointer escaping of one reference token (RFC 6901). */
export function pointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Follows a local `#/...` reference inside one document (one hop at a time until no `$ref`). */
export function resolveLocal(doc: JsonObject, node: Json): Json {
  let current = node;
  while (isObject(current) && typeof current.$ref === 'string' && current.$ref.startsWith('#/')) {
    const tokens = current.$ref.slice(2).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    current = tokens.reduce<Json>((at, token) => (isObject(at) ? (at[token] ?? null) : null), doc);
  }
  return current;
}

export interface SeedEndpoint {
  family: Family;
  method: string;
  path: string;
  auth: string;
}

/** The 90 endpoints of contracts/endpoints.tsv: family, method, path, auth (scope). */
export function loadSeedEndpoints(): SeedEndpoint[] {
  const lines = readFileSync(join(contractsDir, 'endpoints.tsv'), 'utf8').trim().split('\n');
  const [header, ...rows] = lines.filter((line) => !line.startsWith('#'));
  if (header !== 'family\tmethod\tpath\tauth') throw new Error(`unexpected endpoints.tsv header: ${header}`);
  return rows.map((row) => {
    const [family, method, path, auth] = row.split('\t');
    if ((family !== 'v3' && family !== 'v1') || !method || !path || !auth) throw new Error(`bad endpoints.tsv row: ${row}`);
    return { family, method, path, auth };
  });
}
