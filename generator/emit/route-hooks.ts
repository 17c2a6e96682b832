// What routes.ts needs of a contract for its idempotency and limit-header middleware: the
// catalog codes marked `x-idempotency-failure` and `x-limit-failure`, and the header components
// marked `x-idempotency-replayed`, `x-retry-after` and `x-limit` (by the names responses use).
// A contract without idempotent operations (or without limit headers) gets no such middleware;
// one that marks nothing gets the catalog's first 409 (429) code, and the usual header names.
import { isObject, type CatalogEntryModel, type ContractModel } from '../model.js';
import type { CatalogCode } from '../runtime/router-runtime.js';
import type { IdempotencyFailure } from '../runtime/server-idempotency.js';
import type { LimitHeader } from '../runtime/server-limits.js';
import { responseHeaderNames } from './contract-data.js';

export interface IdempotencyData {
  failures: Record<IdempotencyFailure, CatalogCode>;
  replayedHeader: string;
}

export interface LimitData {
  windows: string[];
  headers: LimitHeader[];
  failures: Record<string, CatalogCode>;
  retryAfterHeader: string;
  operations: string[];
}

const idempotencyFailureNames: IdempotencyFailure[] = ['key-reused', 'in-flight'];
const limitValues: LimitHeader['value'][] = ['limit', 'remaining', 'reset'];

export function idempotencyData(model: ContractModel): IdempotencyData | undefined {
  if (!model.operations.some((op) => op.idempotency !== undefined)) return undefined;
  const failures = Object.fromEntries(idempotencyFailureNames.map((failure) => (
    [failure, markedCode(model, (e) => e.idempotencyFailures.includes(failure), { code: 'idempotency_conflict', status: 409 })]
  ))) as Record<IdempotencyFailure, CatalogCode>;
  return { failures, replayedHeader: markedHeader(model, 'x-idempotency-replayed') ?? 'Idempotent-Replayed' };
}

export function limitData(model: ContractModel): LimitData | undefined {
  const headers = headerComponents(model).flatMap(({ name, definition }) => {
    const mark = definition['x-limit'];
    if (!isObject(mark)) return [];
    const value = limitValues.find((v) => v === mark.value);
    if (typeof mark.window !== 'string' || value === undefined) throw new Error(`${model.source}: header ${name}: x-limit needs a window and a value (${limitValues.join(', ')})`);
    return [{ header: name, window: mark.window, value }];
  });
  if (headers.length === 0) return undefined;
  const windows = [...new Set(headers.map((h) => h.window))];
  const failures = Object.fromEntries(windows.map((window) => (
    [window, markedCode(model, (e) => e.limitFailures.includes(window), { code: 'rate_limit_exceeded', status: 429 })]
  )));
  const names = new Set(headers.map((h) => h.header));
  const operations = model.operations
    .filter((op) => op.responses.some((response) => response.status.startsWith('2') && response.headers.some((header) => names.has(header))))
    .map((op) => op.operationId);
  return { windows, headers, failures, retryAfterHeader: markedHeader(model, 'x-retry-after') ?? 'Retry-After', operations };
}

/** The header components the contract's responses use, by the name they use them under. */
function headerComponents(model: ContractModel): { name: string; definition: Record<string, unknown> }[] {
  const document = model.document as unknown as Record<string, unknown>;
  const components = isObject(document.components) && isObject(document.components.headers) ? document.components.headers : {};
  return Object.entries(responseHeaderNames(document)).flatMap(([component, name]) => {
    const definition = components[component];
    return isObject(definition) ? [{ name, definition }] : [];
  });
}

function markedHeader(model: ContractModel, extension: string): string | undefined {
  return headerComponents(model).find(({ definition }) => definition[extension] === true)?.name;
}

/** The catalog code marked for a failure, else the catalog's first of the fallback's status, else the fallback. */
function markedCode(model: ContractModel, marked: (entry: CatalogEntryModel) => boolean, fallback: CatalogCode): CatalogCode {
  const entry = model.errorCatalog.find(marked) ?? model.errorCatalog.find((e) => e.status === fallback.status);
  return entry === undefined ? fallback : { code: entry.code, status: entry.status };
}
