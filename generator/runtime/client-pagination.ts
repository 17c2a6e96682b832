// How to walk the pages of a list, per API family and mode. A plan gives the query of the first
// page and, from each response body, the query of the next page (undefined: that was the last).
// Query values set to undefined remove the caller's value of that name.
// Fields of a body read as a record are read with brackets, as a project compiling with
// noPropertyAccessFromIndexSignature requires.
import { isRecord, type ErrorFormat } from './client-errors.js';

export type PageMode = 'page' | 'cursor';
export type QueryPatch = Record<string, string | number | undefined>;

export interface PagingPlan {
  first: QueryPatch;
  next(body: unknown): QueryPatch | undefined;
}

export function pagingPlan(format: ErrorFormat, mode: PageMode): PagingPlan {
  if (format === 'v3-envelope') {
    return mode === 'page'
      ? {
          first: { page: 1, pagination: undefined, cursor: undefined },
          next: (body) => {
            const meta = paginationMeta(metaOf(body)['pagination']);
            const current = meta['current_page'];
            const last = meta['last_page'];
            if (typeof current !== 'number' || typeof last !== 'number' || current >= last) return undefined;
            return { page: current + 1, pagination: undefined, cursor: undefined };
          },
        }
      : {
          // The first cursor page passes `pagination=cursor` without a cursor (the contract's rule).
          first: { pagination: 'cursor', cursor: undefined, page: undefined },
          next: (body) => {
            const meta = paginationMeta(metaOf(body)['pagination']);
            const cursor = meta['next_cursor'];
            if (typeof cursor !== 'string' || meta['has_more'] === false) return undefined;
            return { pagination: 'cursor', cursor, page: undefined };
          },
        };
  }
  return mode === 'page'
    ? {
        first: { page: 1, cursor: undefined },
        next: (body) => {
          const meta = metaOf(body);
          if (typeof meta['page'] !== 'number' || typeof meta['lastPage'] !== 'number' || meta['page'] >= meta['lastPage']) return undefined;
          return { page: meta['page'] + 1, cursor: undefined };
        },
      }
    : {
        // v1 starts keyset paging with an empty cursor, and `page` would win over it: drop it.
        first: { cursor: '', page: undefined },
        next: (body) => {
          const meta = metaOf(body);
          if (typeof meta['nextCursor'] !== 'string' || meta['hasMore'] === false) return undefined;
          return { cursor: meta['nextCursor'], page: undefined };
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
