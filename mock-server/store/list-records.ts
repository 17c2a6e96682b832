// The list facade domains use: a ListableCollection holds one kind of record and keeps a
// KeysetIndex per sort order a client has asked for (built on first use, then maintained on every
// write, the least recently used dropped beyond a bound), and listRecords reads one page of a
// ListRequest with its family's meta. Filters arrive as a predicate the domain builds from
// `request.filters`; filterPredicate helps with the usual `_from/_to/_min/_max` and list filters.
//
// A collection may be split into partitions (a site's deposits, a client's orders): each key of a
// partition keeps its own indexes, the default sort's from its first record on, so a list scoped
// to one owner reads O(log k + page) of the owner's k records and counts them without a scan,
// however many other records the collection holds.
import { compareAmounts } from '../decimal.js';
import { KeysetIndex, compareValues, type RecordId, type SortValue } from './keyset-index.js';
import { OrderedShardedMap } from './ordered-sharded-map.js';
import { encodeCursor, formatSort, listMeta, type ListFamily, type ListMetaOf, type ListRequest, type SortTerm } from './list-query.js';
import { listKeys, type IdKey, type ListKeys, type SortKey } from './sort-keys.js';

/** The key of a partition a record belongs to (a site id, a client id). */
export type PartitionKey = string | number;

export interface ListableCollectionOptions<R> {
  id: IdKey<R>;
  /** Sort field name (as in `sort`, without `-`) → the value records are ordered by, of its kind. */
  fields: Readonly<Record<string, SortKey<R>>>;
  /** Sort fields whose value never changes once a record is stored: indexes over these keep no key per record. */
  fixedFields?: readonly string[];
  /** How many sort orders keep an index (default 8, per partition key); older ones are rebuilt when asked again. */
  maxIndexes?: number;
  /**
   * Partition name → the key of the record in it (null: in none of its keys). A record's keys
   * never change. Partitioned lists need `defaultSort`, the index every key keeps from its first
   * record on (other sorts are built from it when first asked).
   */
  partitions?: Readonly<Record<string, (record: R) => PartitionKey | null>>;
  defaultSort?: readonly SortTerm[];
}

/** Which records a read covers: one key of one partition (all records without it). */
export interface ListScope {
  partition: string;
  key: PartitionKey;
}

/** The indexes of one key of a partition (or of the whole collection), most recently used last. */
class IndexSet<R> {
  readonly indexes = new Map<string, KeysetIndex<R>>();
  constructor(readonly permanent: string | null) {}
}

export class ListableCollection<R> {
  private records = new OrderedShardedMap<RecordId, R>();
  private readonly whole: IndexSet<R> = new IndexSet(null);
  /** Partition name → key → its indexes. */
  private readonly partitions = new Map<string, Map<PartitionKey, IndexSet<R>>>();
  /** The kinds of the sort fields and of the id: what a cursor of this list must carry. */
  readonly keys: ListKeys;
  private readonly idOf: (record: R) => RecordId;
  private readonly maxIndexes: number;
  private readonly fixed: ReadonlySet<string>;
  private readonly defaultSort: readonly SortTerm[] | undefined;
  /** options.partitions as entries, made once: a record's sets are looked up on every write. */
  private readonly partitionKeys: readonly (readonly [string, (record: R) => PartitionKey | null])[];

  constructor(private readonly options: ListableCollectionOptions<R>) {
    this.keys = listKeys(options.fields, options.id);
    this.idOf = options.id.value;
    this.partitionKeys = Object.entries(options.partitions ?? {});
    this.maxIndexes = options.maxIndexes ?? 8;
    this.fixed = new Set(options.fixedFields ?? []);
    this.defaultSort = options.defaultSort;
    if (options.partitions !== undefined && options.defaultSort === undefined) throw new Error('ListableCollection: partitions need a defaultSort');
    for (const [name] of this.partitionKeys) this.partitions.set(name, new Map());
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
    this.records.set(this.idOf(record), record);
    for (const set of this.setsOf(record, true)) for (const index of set.indexes.values()) index.upsert(record);
  }

  /**
   * Replaces every record with these (a snapshot or journal being restored): keyed by their ids,
   * in the order they were made, the map becomes the collection's own rather than copied (at a
   * million records, hashing every id again cost the start about half a second). Each index is
   * built with one sort rather than an insert per record (a million inserts into the sorted
   * chunks cost some 30 s, one sort about one).
   */
  load(records: OrderedShardedMap<RecordId, R>): void {
    this.clear();
    this.records = records;
    const members = new Map<IndexSet<R>, R[]>();
    for (const record of records.values()) {
      for (const set of this.setsOf(record, true)) {
        const list = members.get(set);
        if (list === undefined) members.set(set, [record]);
        else list.push(record);
      }
    }
    for (const [set, list] of members) for (const index of set.indexes.values()) index.load(list);
  }

  delete(id: RecordId): boolean {
    const record = this.records.get(id);
    if (record === undefined) return false;
    this.records.delete(id);
    for (const set of this.setsOf(record, false)) for (const index of set.indexes.values()) index.delete(id, record);
    return true;
  }

  clear(): void {
    this.records.clear();
    this.whole.indexes.clear();
    for (const keys of this.partitions.values()) keys.clear();
  }

  /**
   * The index of a sort order over the scope's records (all without a scope); throws for a field
   * or partition the collection does not know (a domain bug).
   */
  index(sort: readonly SortTerm[], scope?: ListScope): KeysetIndex<R> {
    const key = formatSort(sort).join(',');
    const set = scope === undefined ? this.whole : this.scopeSet(scope, false);
    if (set === undefined) return this.newIndex(sort); // a key without records: an empty index
    const existing = set.indexes.get(key);
    if (existing !== undefined) {
      // Re-inserting marks it most recently used (Map keeps insertion order).
      set.indexes.delete(key);
      set.indexes.set(key, existing);
      return existing;
    }
    const index = this.newIndex(sort);
    index.load(set === this.whole ? this.records.values() : set.indexes.values().next().value!.values());
    set.indexes.set(key, index);
    this.evict(set);
    return index;
  }

  private newIndex(sort: readonly SortTerm[]): KeysetIndex<R> {
    const fields = sort.map((term) => {
      const sortKey = this.options.fields[term.field];
      if (sortKey === undefined) throw new Error(`ListableCollection: no sort field ${term.field}`);
      return { name: term.field, direction: term.direction, value: sortKey.value };
    });
    return new KeysetIndex<R>({ id: this.idOf, fields, fixedKeys: sort.every((term) => this.fixed.has(term.field)) });
  }

  /** Drops the least recently used indexes beyond the bound, never a partition key's default one. */
  private evict(set: IndexSet<R>): void {
    for (const key of set.indexes.keys()) {
      if (set.indexes.size <= this.maxIndexes) return;
      if (key !== set.permanent) set.indexes.delete(key);
    }
  }

  private scopeSet(scope: ListScope, create: boolean): IndexSet<R> | undefined {
    const keys = this.partitions.get(scope.partition);
    if (keys === undefined) throw new Error(`ListableCollection: no partition ${scope.partition}`);
    let set = keys.get(scope.key);
    if (set === undefined && create) {
      const sort = this.defaultSort!;
      set = new IndexSet<R>(formatSort(sort).join(','));
      set.indexes.set(set.permanent!, this.newIndex(sort));
      keys.set(scope.key, set);
    }
    return set;
  }

  /** The index sets a record is in: the whole collection's and one per partition it has a key in. */
  private setsOf(record: R, create: boolean): IndexSet<R>[] {
    const sets = [this.whole];
    for (const [partition, keyOf] of this.partitionKeys) {
      const key = keyOf(record);
      if (key === null) continue;
      const set = this.scopeSet({ partition, key }, create);
      if (set !== undefined) sets.push(set);
    }
    return sets;
  }
}

export interface ListedPage<R, F extends ListFamily> {
  items: R[];
  meta: ListMetaOf<F>;
}

/** One page of a list request over the scope's records (all without one): the records and the family's pagination meta. */
export function listRecords<R, F extends ListFamily>(
  collection: ListableCollection<R>,
  request: ListRequest<F>,
  filter?: (record: R) => boolean,
  scope?: ListScope,
): ListedPage<R, F> {
  const index = collection.index(request.sort, scope);
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
    if (decimal.test(actual) && decimal.test(bound)) return compareAmounts(actual, bound);
    if (dateTime.test(actual) && dateTime.test(bound)) return Date.parse(actual) - Date.parse(bound);
  }
  if (typeof actual === 'number' && typeof bound === 'string' && dateTime.test(bound)) return actual - Date.parse(bound);
  return compareValues(actual, bound as SortValue);
}

