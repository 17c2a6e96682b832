// List queries as the store sees them. Pure functions turn a list operation's VALIDATED query
// (v3: page, per_page, pagination, cursor, sort, filter[...]; v1: page, perPage, status, cursor)
// into a ListRequest, encode and decode the opaque keyset cursors, and build the pagination meta
// of each family (v3 `meta.pagination` per schemas/pagination.v1.json, v1 `meta` per ListMeta).
// Defaults and bounds are the contract's (list-contract.ts reads them).
import type { KeysetPosition, RecordId, SortDirection, SortValue } from './keyset-index.js';
import { keysFit, type ListKeys } from './sort-keys.js';

export type ListFamily = 'v3' | 'v1';
export type PaginationMode = 'page' | 'cursor';

/** The contract's defaults and bounds for one list operation. */
export interface ListContract {
  operationId: string;
  pageDefault: number;
  perPageDefault: number;
  perPageMaximum: number;
  /** v3's `pagination` default; v1 lists are in page mode unless a cursor is passed. */
  modeDefault: PaginationMode;
  /** The `sort` parameter's enum and default; undefined when the operation takes no `sort`. */
  sort: { allowed: readonly string[]; default: readonly string[] } | undefined;
}

export interface SortTerm {
  field: string;
  direction: SortDirection;
}

interface ListRequestBase<F extends ListFamily> {
  family: F;
  perPage: number;
  sort: SortTerm[];
  /** Filter values by name: v3 `filter[status]` → `status`; v1 `status` → `status`. */
  filters: Record<string, unknown>;
}

export interface PageListRequest<F extends ListFamily = ListFamily> extends ListRequestBase<F> {
  mode: 'page';
  page: number;
}

export interface CursorListRequest<F extends ListFamily = ListFamily> extends ListRequestBase<F> {
  mode: 'cursor';
  /** The cursor as the client sent it (null on the first cursor page). */
  cursor: string | null;
  /** Where the page starts: after this position (null: from the first record). */
  after: KeysetPosition | null;
}

export type ListRequest<F extends ListFamily = ListFamily> = PageListRequest<F> | CursorListRequest<F>;

/** Field → messages, as `validation_error` / `VALIDATION_ERROR` details carry them. */
export type ListQueryDetails = Record<string, string[]>;

export type ListRequestResult<F extends ListFamily> = { ok: true; request: ListRequest<F> } | { ok: false; details: ListQueryDetails };

// ---------------------------------------------------------------------------------------------
// Query → ListRequest

/** A validated v3 list query (the generated router's parsed and validated `query`). */
export interface V3ListQuery {
  page?: number;
  per_page?: number;
  pagination?: PaginationMode;
  cursor?: string;
  sort?: readonly string[];
  [filter: `filter[${string}]`]: unknown;
}

/**
 * A v3 list request. The mode is `pagination` when given, else cursor mode when a cursor is
 * passed, else the contract's default; the other mode's parameters are ignored (`page` in cursor
 * mode, `cursor` in page mode). `keys`: what the listed records are keyed by, which a cursor's
 * keys must be.
 */
export function v3ListRequest(query: V3ListQuery, contract: ListContract, keys: ListKeys): ListRequestResult<'v3'> {
  const sort = sortTerms(query.sort, contract);
  if (!sort.ok) return sort;
  const filters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    const match = /^filter\[(.+)\]$/.exec(name);
    if (match !== null && value !== undefined) filters[match[1]!] = value;
  }
  const perPage = query.per_page ?? contract.perPageDefault;
  const mode = query.pagination ?? (query.cursor !== undefined ? 'cursor' : contract.modeDefault);
  if (mode === 'page') return { ok: true, request: { family: 'v3', mode, page: query.page ?? contract.pageDefault, perPage, sort: sort.terms, filters } };
  return cursorRequest('v3', query.cursor, perPage, sort.terms, filters, keys);
}

/** A validated v1 list query. */
export interface V1ListQuery {
  page?: number;
  perPage?: number;
  status?: readonly string[];
  cursor?: string;
}

/**
 * A v1 list request. A `cursor` (even empty) without `page` selects cursor mode; `page` wins
 * over `cursor` (the contract's words). v1 lists take no `sort`: `sort` is the list's fixed order.
 */
export function v1ListRequest(query: V1ListQuery, contract: ListContract, sort: readonly string[], keys: ListKeys): ListRequestResult<'v1'> {
  const terms = sortTerms(sort, { ...contract, sort: undefined });
  if (!terms.ok) return terms;
  const filters: Record<string, unknown> = query.status === undefined ? {} : { status: query.status };
  const perPage = query.perPage ?? contract.perPageDefault;
  if (query.cursor === undefined || query.page !== undefined) {
    return { ok: true, request: { family: 'v1', mode: 'page', page: query.page ?? contract.pageDefault, perPage, sort: terms.terms, filters } };
  }
  return cursorRequest('v1', query.cursor === '' ? undefined : query.cursor, perPage, terms.terms, filters, keys);
}

function cursorRequest<F extends ListFamily>(
  family: F,
  cursor: string | undefined,
  perPage: number,
  sort: SortTerm[],
  filters: Record<string, unknown>,
  keys: ListKeys,
): ListRequestResult<F> {
  if (cursor === undefined) return { ok: true, request: { family, mode: 'cursor', cursor: null, after: null, perPage, sort, filters } };
  const decoded = decodeCursor(cursor, sort, keys);
  if (!decoded.ok) return { ok: false, details: { 'query.cursor': [decoded.message] } };
  return { ok: true, request: { family, mode: 'cursor', cursor, after: decoded.position, perPage, sort, filters } };
}

function sortTerms(sort: readonly string[] | undefined, contract: ListContract): { ok: true; terms: SortTerm[] } | { ok: false; details: ListQueryDetails } {
  const spec = sort ?? contract.sort?.default ?? [];
  // The generated validator already enforces the enum; this guards callers that skip it.
  const allowed = contract.sort?.allowed;
  const unknown = allowed === undefined || sort === undefined ? [] : spec.filter((term) => !allowed.includes(term));
  if (unknown.length > 0) return { ok: false, details: { 'query.sort': [`must be one of: ${allowed!.join(', ')}`] } };
  return { ok: true, terms: spec.map(parseSortTerm) };
}

export function parseSortTerm(term: string): SortTerm {
  return term.startsWith('-') ? { field: term.slice(1), direction: 'desc' } : { field: term, direction: 'asc' };
}

export function formatSort(sort: readonly SortTerm[]): string[] {
  return sort.map((term) => (term.direction === 'desc' ? `-${term.field}` : term.field));
}

// ---------------------------------------------------------------------------------------------
// Cursors: base64url JSON of { s: sort spec, k: sort values, i: id } of the last item of a page.

interface CursorBody {
  s: string[];
  k: SortValue[];
  i: RecordId;
}

export function encodeCursor(sort: readonly SortTerm[], position: KeysetPosition): string {
  const body: CursorBody = { s: formatSort(sort), k: [...position.values], i: position.id };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

export type DecodedCursor = { ok: true; position: KeysetPosition } | { ok: false; message: string };

/**
 * Never throws on what a client sent: anything that cannot be a cursor this server issued for this
 * sort of a list keyed by `keys` is an error result: garbage, another sort's cursor, or keys that
 * are not of the kinds the sort fields and ids have (a made-up or edited cursor).
 */
export function decodeCursor(cursor: string, sort: readonly SortTerm[], keys: ListKeys): DecodedCursor {
  const invalid = { ok: false, message: 'is not a valid cursor' } as const;
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return invalid;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return invalid;
  }
  if (!isCursorBody(body)) return invalid;
  const spec = formatSort(sort);
  if (body.s.length !== spec.length || body.s.some((term, i) => term !== spec[i])) {
    return { ok: false, message: `was issued for another sort order (${body.s.join(',')}); restart without a cursor` };
  }
  if (!keysFit(keys, sort.map((term) => term.field), body.k, body.i)) return invalid;
  return { ok: true, position: { values: body.k, id: body.i } };
}

function isCursorBody(value: unknown): value is CursorBody {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { s, k, i } = value as Record<string, unknown>;
  return (
    Array.isArray(s) && s.every((term) => typeof term === 'string') &&
    Array.isArray(k) && k.every(isSortValue) &&
    ((typeof i === 'string') || (typeof i === 'number' && Number.isFinite(i)))
  );
}

function isSortValue(value: unknown): value is SortValue {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

// ---------------------------------------------------------------------------------------------
// Meta

/** `meta.pagination` of a v3 list (schemas/pagination.v1.json). */
export type V3PaginationMeta =
  | { mode: 'page'; current_page: number; per_page: number; total: number; last_page: number; from: number | null; to: number | null }
  | { mode: 'cursor'; per_page: number; cursor: string | null; next_cursor: string | null; has_more: boolean };

/** `meta` of a v1 list (ListMeta). */
export interface V1ListMeta {
  page: number | null;
  perPage: number;
  total: number | null;
  lastPage: number | null;
  nextCursor: string | null;
  hasMore: boolean;
}

/** What a read of one page found. */
export type ListOutcome =
  | { mode: 'page'; itemCount: number; total: number }
  | { mode: 'cursor'; hasMore: boolean; nextCursor: string | null };

export type ListMetaOf<F extends ListFamily> = F extends 'v3' ? V3PaginationMeta : V1ListMeta;

export function listMeta<F extends ListFamily>(request: ListRequest<F>, outcome: ListOutcome): ListMetaOf<F> {
  const meta = request.family === 'v3' ? v3PaginationMeta(request, outcome) : v1ListMeta(request, outcome);
  return meta as ListMetaOf<F>;
}

export function v3PaginationMeta(request: ListRequest, outcome: ListOutcome): V3PaginationMeta {
  if (request.mode === 'page') {
    const page = pageNumbers(request, outcome);
    return { mode: 'page', current_page: request.page, per_page: request.perPage, ...page };
  }
  const { hasMore, nextCursor } = cursorNumbers(outcome);
  return { mode: 'cursor', per_page: request.perPage, cursor: request.cursor, next_cursor: nextCursor, has_more: hasMore };
}

export function v1ListMeta(request: ListRequest, outcome: ListOutcome): V1ListMeta {
  if (request.mode === 'page') {
    const { total, last_page } = pageNumbers(request, outcome);
    return { page: request.page, perPage: request.perPage, total, lastPage: last_page, nextCursor: null, hasMore: request.page < last_page };
  }
  const { hasMore, nextCursor } = cursorNumbers(outcome);
  return { page: null, perPage: request.perPage, total: null, lastPage: null, nextCursor, hasMore };
}

function pageNumbers(request: PageListRequest, outcome: ListOutcome): { total: number; last_page: number; from: number | null; to: number | null } {
  if (outcome.mode !== 'page') throw new Error('list meta: a page-mode request needs a page-mode outcome');
  const { total, itemCount } = outcome;
  const offset = (request.page - 1) * request.perPage;
  return {
    total,
    last_page: Math.max(1, Math.ceil(total / request.perPage)),
    from: itemCount === 0 ? null : offset + 1,
    to: itemCount === 0 ? null : offset + itemCount,
  };
}

function cursorNumbers(outcome: ListOutcome): { hasMore: boolean; nextCursor: string | null } {
  if (outcome.mode !== 'cursor') throw new Error('list meta: a cursor-mode request needs a cursor-mode outcome');
  return { hasMore: outcome.hasMore, nextCursor: outcome.hasMore ? outcome.nextCursor : null };
}
