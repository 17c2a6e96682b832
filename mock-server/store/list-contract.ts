// The defaults and bounds of each list operation, read once from the bundled contracts
// (generated/<family>/openapi.yaml): page and per-page defaults, the per-page maximum, the
// pagination-mode default and the allowed sort fields.
import { bundledDocument, type BundledContract } from '../bundled-contracts.js';
import { parseSortTerm, type ListContract, type ListFamily, type SortTerm } from './list-query.js';

const bundledContracts: Record<ListFamily, BundledContract> = { v3: 'exchange-v3', v1: 'deposit-v1' };

// The parameter names each family's lists use (the generated query types hold the same names).
const parameterNames: Record<ListFamily, { page: string; perPage: string; mode: string | undefined; sort: string | undefined }> = {
  v3: { page: 'page', perPage: 'per_page', mode: 'pagination', sort: 'sort' },
  v1: { page: 'page', perPage: 'perPage', mode: undefined, sort: undefined },
};

const contracts = new Map<string, ListContract>();

/** The defaults and bounds of a list operation, read from the bundled contract (parsed once). */
export function listContract(family: ListFamily, operationId: string): ListContract {
  const cacheKey = `${family} ${operationId}`;
  const cached = contracts.get(cacheKey);
  if (cached !== undefined) return cached;
  const contract = readListContract(bundledDocument(bundledContracts[family]), family, operationId);
  contracts.set(cacheKey, contract);
  return contract;
}

/** The `sort` default of a list operation as sort terms (none when it takes no `sort`). */
export function contractDefaultSort(family: ListFamily, operationId: string): SortTerm[] {
  return (listContract(family, operationId).sort?.default ?? []).map(parseSortTerm);
}

interface ParameterObject {
  name: string;
  in: string;
  schema?: { default?: unknown; maximum?: unknown; enum?: unknown; items?: { enum?: unknown } };
}

function readListContract(document: Record<string, unknown>, family: ListFamily, operationId: string): ListContract {
  const operation = findOperation(document, operationId);
  if (operation === undefined) throw new Error(`listContract: no operation ${operationId} in the ${family} contract`);
  const parameters = ((operation.parameters ?? []) as unknown[]).map((p) => resolve(document, p) as ParameterObject).filter((p) => p.in === 'query');
  const names = parameterNames[family];
  const byName = (name: string | undefined): ParameterObject | undefined => parameters.find((p) => p.name === name);
  const page = byName(names.page);
  const perPage = byName(names.perPage);
  if (page === undefined || perPage === undefined) throw new Error(`listContract: ${operationId} takes no ${names.page}/${names.perPage}`);
  const sort = byName(names.sort);
  const mode = byName(names.mode);
  return {
    operationId,
    pageDefault: integer(page.schema?.default, `${operationId} ${names.page} default`),
    perPageDefault: integer(perPage.schema?.default, `${operationId} ${names.perPage} default`),
    perPageMaximum: integer(perPage.schema?.maximum, `${operationId} ${names.perPage} maximum`),
    modeDefault: mode?.schema?.default === 'cursor' ? 'cursor' : 'page',
    sort: sort === undefined ? undefined : { allowed: strings(sort.schema?.items?.enum), default: strings(sort.schema?.default) },
  };
}

function findOperation(document: Record<string, unknown>, operationId: string): Record<string, unknown> | undefined {
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    for (const operation of Object.values(item)) {
      if (typeof operation === 'object' && operation !== null && (operation as { operationId?: unknown }).operationId === operationId) {
        return operation as Record<string, unknown>;
      }
    }
  }
  return undefined;
}

/** Follows local `$ref`s (`#/components/parameters/Page`). */
function resolve(document: Record<string, unknown>, value: unknown): unknown {
  let current = value;
  for (let hops = 0; hops < 16 && typeof current === 'object' && current !== null && '$ref' in current; hops += 1) {
    const ref = String((current as { $ref: unknown }).$ref);
    if (!ref.startsWith('#/')) throw new Error(`listContract: cannot follow ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, segment) => (node as Record<string, unknown> | undefined)?.[segment], document);
  }
  return current;
}

function integer(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error(`listContract: ${what} is not in the contract`);
  return value;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}
