// How to walk the pages of a list, per API family and mode. A plan gives the query of the first
// page and, from each response body, the query of the next page (undefined: that was the last).
// Query values set to undefined remove the caller's value of that name.
import { isRecord, type ErrorFormat } from './client-errors.js';

export type PageMode = 'page' | 'cursor';
export type QueryPatch = Record<string, string | number | undefined>;

export interface PagingPlan {
  first: QueryPatch;
  next(body: unknown): QueryPatch | undefined;
}

// Fields of a body read as a record are read with brackets, as a project compiling with
// noPropertyAccessFromIndexSignature requires.

/**
 * What a page's meta says about where the list stands, whatever the family calls its fields
 * (v3 `meta.pagination.current_page`, v1 `meta.lastPage`…); a field the meta lacks is undefined.
 */
export interface PageStanding {
  current?: unknown;
  last?: unknown;
  total?: unknown;
  nextCursor?: unknown;
  hasMore?: unknown;
}

export function pageStanding(format: ErrorFormat, body: unknown): PageStanding {
  if (format === 'v3-envelope') {
    const meta = paginationMeta(metaOf(body)['pagination']);
    return { current: meta['current_page'], last: meta['last_page'], total: meta['total'], nextCursor: meta['next_cursor'], hasMore: meta['has_more'] };
  }
  const meta = metaOf(body);
  return { current: meta['page'], last: meta['lastPage'], total: meta['total'], nextCursor: meta['nextCursor'], hasMore: meta['hasMore'] };
}

export function pagingPlan(format: ErrorFormat, mode: PageMode): PagingPlan {
  // v3 selects the cursor mode with `pagination=cursor` (without a cursor on the first page, the
  // contract's rule); v1 starts keyset paging with an empty cursor, and `page` would win over it.
  const cursorFirst: QueryPatch = format === 'v3-envelope' ? { pagination: 'cursor', cursor: undefined, page: undefined } : { cursor: '', page: undefined };
  const pageQuery = (page: number): QueryPatch => (format === 'v3-envelope' ? { page, pagination: undefined, cursor: undefined } : { page, cursor: undefined });
  const cursorQuery = (cursor: string): QueryPatch => (format === 'v3-envelope' ? { pagination: 'cursor', cursor, page: undefined } : { cursor, page: undefined });
  return mode === 'page'
    ? {
        first: pageQuery(1),
        next: (body) => {
          const { current, last } = pageStanding(format, body);
          if (typeof current !== 'number' || typeof last !== 'number' || current >= last) return undefined;
          return pageQuery(current + 1);
        },
      }
    : {
        first: cursorFirst,
        next: (body) => {
          const { nextCursor, hasMore } = pageStanding(format, body);
          if (typeof nextCursor !== 'string' || hasMore === false) return undefined;
          return cursorQuery(nextCursor);
        },
      };
}

/** The array at a dot path of the body (`result.orders`, `data`). */
export function itemsAt(body: unknown, dotPath: string, operationId: string): unknown[] {
  let value: unknown = body;
  for (const key of dotPath.split('.')) value = isRecord(value) ? value[key] : undefined;
  if (!Array.isArray(value)) throw new TypeError(`${operationId}: the response has no list at ${dotPath}`);
  return value;
}

function metaOf(body: unknown): Record<string, unknown> {
  return isRecord(body) && isRecord(body['meta']) ? body['meta'] : {};
}

function paginationMeta(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}
