// An in-memory ordered index over records: one sort order (one or more fields, each asc or desc,
// then the record id as the tie-breaker), kept as a sorted array searched by bisection. A page
// read costs O(log n + page): `page` slices at an offset, `after` bisects to a keyset position and
// walks forward. Writes cost a bisection plus an array splice (a memmove), cheap at mock sizes;
// `load` builds from many records with one sort.
//
// Filters are applied while walking, so a filtered read costs the records walked over, not the
// whole set — except a filtered total, which has to count every match.

/** A value records are ordered by. Dates should be given as epoch milliseconds or ISO strings of one format. */
export type SortValue = string | number | boolean | null;
export type RecordId = string | number;
export type SortDirection = 'asc' | 'desc';

export interface SortField<R> {
  name: string;
  direction: SortDirection;
  value: (record: R) => SortValue;
}

/** A position in an order: the sort values of a record and its id (what a cursor carries). */
export interface KeysetPosition {
  values: readonly SortValue[];
  id: RecordId;
}

export interface KeysetIndexOptions<R> {
  id: (record: R) => RecordId;
  fields: readonly SortField<R>[];
  /** Direction of the id tie-breaker; default: that of the last field (asc without fields). */
  idDirection?: SortDirection;
}

/** What reads cost, for tests that assert O(page) without timing anything. */
export interface IndexMetrics {
  /** Key comparisons made while bisecting and inserting. */
  comparisons: number;
  /** Records looked at while walking a page (filter calls or items copied). */
  visited: number;
}

interface Entry<R> {
  record: R;
  key: KeysetPosition;
}

export interface OffsetPage<R> {
  items: R[];
  /** Every record matching the filter (all records without one). */
  total: number;
}

export interface KeysetPage<R> {
  items: R[];
  /** A matching record follows the last item. */
  hasMore: boolean;
  /** Position of the last item; null when the page is empty. */
  last: KeysetPosition | null;
}

export class KeysetIndex<R> {
  readonly metrics: IndexMetrics = { comparisons: 0, visited: 0 };
  private readonly entries: Entry<R>[] = [];
  private readonly byId = new Map<RecordId, Entry<R>>();
  private readonly idOf: (record: R) => RecordId;
  private readonly fields: readonly SortField<R>[];
  private readonly idSign: 1 | -1;
  private readonly signs: readonly (1 | -1)[];

  constructor(options: KeysetIndexOptions<R>) {
    this.idOf = options.id;
    this.fields = [...options.fields];
    this.signs = this.fields.map((field) => (field.direction === 'desc' ? -1 : 1));
    const idDirection = options.idDirection ?? this.fields.at(-1)?.direction ?? 'asc';
    this.idSign = idDirection === 'desc' ? -1 : 1;
  }

  get size(): number {
    return this.entries.length;
  }

  /** The sort spec this index orders by, as `sort` strings (`-created_at`). */
  get spec(): string[] {
    return this.fields.map((field) => (field.direction === 'desc' ? `-${field.name}` : field.name));
  }

  resetMetrics(): void {
    this.metrics.comparisons = 0;
    this.metrics.visited = 0;
  }

  get(id: RecordId): R | undefined {
    return this.byId.get(id)?.record;
  }

  has(id: RecordId): boolean {
    return this.byId.has(id);
  }

  keyOf(record: R): KeysetPosition {
    return { values: this.fields.map((field) => field.value(record)), id: this.idOf(record) };
  }

  /** Inserts the record, or moves it to its new place when a record with its id is indexed. */
  upsert(record: R): void {
    const key = this.keyOf(record);
    this.remove(key.id);
    const entry = { record, key };
    this.entries.splice(this.firstAfter(key, true), 0, entry);
    this.byId.set(key.id, entry);
  }

  /** Replaces the content with these records (later duplicates of an id win), with one sort. */
  load(records: Iterable<R>): void {
    this.byId.clear();
    for (const record of records) {
      const key = this.keyOf(record);
      this.byId.set(key.id, { record, key });
    }
    const sorted = [...this.byId.values()].sort((a, b) => this.compare(a.key, b.key));
    this.entries.length = 0;
    for (const entry of sorted) this.entries.push(entry);
  }

  delete(id: RecordId): boolean {
    return this.remove(id);
  }

  clear(): void {
    this.entries.length = 0;
    this.byId.clear();
  }

  /** Records in order from the first. */
  *values(): IterableIterator<R> {
    for (const entry of this.entries) yield entry.record;
  }

  /** `limit` matching records after skipping `offset` matching ones, and how many match in all. */
  page(offset: number, limit: number, filter?: (record: R) => boolean): OffsetPage<R> {
    if (filter === undefined) {
      const items: R[] = [];
      const end = Math.min(this.entries.length, offset + limit);
      for (let i = Math.max(0, offset); i < end; i += 1) {
        this.metrics.visited += 1;
        items.push(this.entries[i]!.record);
      }
      return { items, total: this.entries.length };
    }
    // The total of a filtered list needs every match counted; the page itself is gathered on the way.
    const items: R[] = [];
    let total = 0;
    for (const entry of this.entries) {
      this.metrics.visited += 1;
      if (!filter(entry.record)) continue;
      if (total >= offset && items.length < limit) items.push(entry.record);
      total += 1;
    }
    return { items, total };
  }

  /**
   * Up to `limit` matching records strictly after `position` (from the first record when null).
   * The position need not be a record that still exists: records deleted or inserted since the
   * previous page do not shift it (stable keyset paging).
   */
  after(position: KeysetPosition | null, limit: number, filter?: (record: R) => boolean): KeysetPage<R> {
    const items: R[] = [];
    let i = position === null ? 0 : this.firstAfter(position, false);
    for (; i < this.entries.length; i += 1) {
      const entry = this.entries[i]!;
      this.metrics.visited += 1;
      if (filter !== undefined && !filter(entry.record)) continue;
      if (items.length === limit) return { items, hasMore: true, last: this.lastKey(items) };
      items.push(entry.record);
    }
    return { items, hasMore: false, last: this.lastKey(items) };
  }

  private lastKey(items: readonly R[]): KeysetPosition | null {
    const last = items.at(-1);
    return last === undefined ? null : this.byId.get(this.idOf(last))!.key;
  }

  private remove(id: RecordId): boolean {
    const entry = this.byId.get(id);
    if (entry === undefined) return false;
    // Keys are unique (the id breaks ties), so bisection finds the entry's exact slot.
    const at = this.firstAfter(entry.key, true);
    this.entries.splice(at, 1);
    this.byId.delete(id);
    return true;
  }

  /** First slot whose key is greater than `key` (or, with `inclusive`, greater or equal). */
  private firstAfter(key: KeysetPosition, inclusive: boolean): number {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = this.compare(this.entries[middle]!.key, key);
      if (order < 0 || (order === 0 && !inclusive)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private compare(a: KeysetPosition, b: KeysetPosition): number {
    this.metrics.comparisons += 1;
    for (let i = 0; i < this.signs.length; i += 1) {
      const order = compareValues(a.values[i] ?? null, b.values[i] ?? null);
      if (order !== 0) return order * this.signs[i]!;
    }
    return compareValues(a.id, b.id) * this.idSign;
  }
}

const typeRank: Record<string, number> = { object: 0, boolean: 1, number: 2, string: 3 };

/**
 * A total order over sort values: null first, then booleans, numbers, strings (each by value;
 * strings by code unit, the same on every machine). Values of another type from a decoded cursor
 * still compare, they just land at one end.
 */
export function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  const rankA = typeRank[a === null ? 'object' : typeof a] ?? 0;
  const rankB = typeRank[b === null ? 'object' : typeof b] ?? 0;
  if (rankA !== rankB) return rankA - rankB;
  if (typeof a === 'number' && typeof b === 'number') {
    // NaN sorts before every number so the order stays total.
    if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : -1;
    if (Number.isNaN(b)) return 1;
  }
  return (a as string | number | boolean) < (b as string | number | boolean) ? -1 : 1;
}
