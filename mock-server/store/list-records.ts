// The list facade domains use: a ListableCollection holds one kind of record and keeps a
// KeysetIndex per sort order a client has asked for (built on first use, then maintained on every
// write, the least recently used dropped beyond a bound), and listRecords reads one page of a
// ListRequest with its family's meta. Filters arrive as a predicate the domain builds from
// `request.filters`; filterPredicate helps with the usual `_from/_to/_min/_max` and list filters.
import { KeysetIndex, compareValues, type RecordId, type SortValue } from './keyset-index.js';
import { encodeCursor, formatSort, listMeta, type ListFamily, type ListMetaOf, type ListRequest, type SortTerm } from './list-query.js';

export interface ListableCollectionOptions<R> {
  id: (record: R) => RecordId;
  /** Sort field name (as in `sort`, without `-`) → the value records are ordered by. */
  fields: Readonly<Record<string, (record: R) => SortValue>>;
  /** How many sort orders keep an index (default 8); older ones are rebuilt when asked again. */
  maxIndexes?: number;
}

export class ListableCollection<R> {
  private readonly records = new Map<RecordId, R>();
  private readonly indexes = new Map<string, KeysetIndex<R>>();
  private readonly maxIndexes: number;

  constructor(private readonly options: ListableCollectionOptions<R>) {
    this.maxIndexes = options.maxIndexes ?? 8;
  }

  get size(): number {
    return this.records.size;
  }

  get(id: RecordId): R | undefined {
    return this.records.get(id);
  }

  /** Records in insertion order (no sort). */
  values(): IterableIterator<R> {
    return this.records.values();
  }

  upsert(record: R): void {
    this.records.set(this.options.id(record), record);
    for (const index of this.indexes.values()) index.upsert(record);
  }

  delete(id: RecordId): boolean {
    if (!this.records.delete(id)) return false;
    for (const index of this.indexes.values()) index.delete(id);
    return true;
  }

  clear(): void {
    this.records.clear();
    this.indexes.clear();
  }

  /** The index of a sort order; throws for a field the collection does not know (a domain bug). */
  index(sort: readonly SortTerm[]): KeysetIndex<R> {
    const key = formatSort(sort).join(',');
    const existing = this.indexes.get(key);
    if (existing !== undefined) {
      // Re-inserting marks it most recently used (Map keeps insertion order).
      this.indexes.delete(key);
      this.indexes.set(key, existing);
      return existing;
    }
    const fields = sort.map((term) => {
      const value = this.options.fields[term.field];
      if (value === undefined) throw new Error(`ListableCollection: no sort field ${term.field}`);
      return { name: term.field, direction: term.direction, value };
    });
    const index = new KeysetIndex<R>({ id: this.options.id, fields });
    index.load(this.records.values());
    this.indexes.set(key, index);
    if (this.indexes.size > this.maxIndexes) this.indexes.delete(this.indexes.keys().next().value!);
    return index;
  }
}

export interface ListedPage<R, F extends ListFamily> {
  items: R[];
  meta: ListMetaOf<F>;
}

/** One page of a list request: the records and the family's pagination meta. */
export function listRecords<R, F extends ListFamily>(
  collection: ListableCollection<R>,
  request: ListRequest<F>,
  filter?: (record: R) => boolean,
): ListedPage<R, F> {
  const index = collection.index(request.sort);
  if (request.mode === 'page') {
    const { items, total } = index.page((request.page - 1) * request.perPage, request.perPage, filter);
    return { items, meta: listMeta(request, { mode: 'page', itemCount: items.length, total }) };
  }
  const { items, hasMore, last } = index.after(request.after, request.perPage, filter);
  const nextCursor = hasMore && last !== null ? encodeCursor(request.sort, last) : null;
  return { items, meta: listMeta(request, { mode: 'cursor', hasMore, nextCursor }) };
}

// ---------------------------------------------------------------------------------------------
// Filters

/** How one filter value is matched against a record. */
export type FilterMatcher<R> = (record: R, value: unknown) => boolean;

/**
 * One predicate for all the request's filters (every one must match); undefined when none is set.
 * A filter without a matcher is a domain bug (the contract declares it, the domain forgot it).
 */
export function filterPredicate<R>(
  filters: Readonly<Record<string, unknown>>,
  matchers: Readonly<Record<string, FilterMatcher<R>>>,
): ((record: R) => boolean) | undefined {
  const active = Object.entries(filters).filter(([, value]) => value !== undefined);
  if (active.length === 0) return undefined;
  const checks = active.map(([name, value]) => {
    const matcher = matchers[name];
    if (matcher === undefined) throw new Error(`filterPredicate: no matcher for filter ${name}`);
    return (record: R) => matcher(record, value);
  });
  return (record) => checks.every((check) => check(record));
}

/** Matchers for the usual shapes of a filter; `value` reads the record's field. */
export const match = {
  /** Equal to the value, or one of the values of a comma-list filter. */
  oneOf<R>(value: (record: R) => unknown): FilterMatcher<R> {
    return (record, wanted) => {
      const actual = value(record);
      return Array.isArray(wanted) ? wanted.includes(actual) : actual === wanted;
    };
  },
  /** `_from` / `_min`: at least the value (timestamps by instant, decimal strings by value). */
  atLeast<R>(value: (record: R) => SortValue): FilterMatcher<R> {
    return (record, bound) => comparable(value(record), bound) >= 0;
  },
  /** `_to` / `_max`: at most the value. */
  atMost<R>(value: (record: R) => SortValue): FilterMatcher<R> {
    return (record, bound) => {
      const actual = value(record);
      return actual !== null && comparable(actual, bound) <= 0;
    };
  },
};

const decimal = /^\d+(\.\d+)?$/;
const dateTime = /^\d{4}-\d{2}-\d{2}T/;

/** Compares a record's value with a filter bound of the same kind; null never passes a bound. */
function comparable(actual: SortValue, bound: unknown): number {
  if (actual === null) return Number.NaN;
  if (typeof actual === 'string' && typeof bound === 'string') {
    if (decimal.test(actual) && decimal.test(bound)) return compareDecimals(actual, bound);
    if (dateTime.test(actual) && dateTime.test(bound)) return Date.parse(actual) - Date.parse(bound);
  }
  if (typeof actual === 'number' && typeof bound === 'string' && dateTime.test(bound)) return actual - Date.parse(bound);
  return compareValues(actual, bound as SortValue);
}

/** Non-negative decimal strings by value, without going through floating point. */
export function compareDecimals(a: string, b: string): number {
  const [aWhole = '', aFraction = ''] = a.split('.');
  const [bWhole = '', bFraction = ''] = b.split('.');
  const wholeA = aWhole.replace(/^0+(?=\d)/, '');
  const wholeB = bWhole.replace(/^0+(?=\d)/, '');
  if (wholeA.length !== wholeB.length) return wholeA.length - wholeB.length;
  if (wholeA !== wholeB) return wholeA < wholeB ? -1 : 1;
  const width = Math.max(aFraction.length, bFraction.length);
  const fractionA = aFraction.padEnd(width, '0');
  const fractionB = bFraction.padEnd(width, '0');
  return fractionA === fractionB ? 0 : fractionA < fractionB ? -1 : 1;
}
