// An in-memory ordered index over records: one sort order (one or more fields, each asc or desc,
// then the record id as the tie-breaker). The records sit in sorted chunks of at most
// `chunkSize`, so a write costs a bisection plus a splice within one chunk (never a memmove of the
// whole index: a million records keep inserts cheap in any order), and a page read costs
// O(log n + page): `page` skips whole chunks to an offset, `after` bisects to a keyset position
// and walks forward. `load` builds from many records with one sort.
//
// An index whose sort values never change while a record is indexed (`fixedKeys`: creation
// times, ids) keeps only the records, 8 bytes each, and computes a key when it compares; the
// others keep each record's key as it was indexed, to find the record again once its values move.
//
// Filters are applied while walking, so a filtered read costs the records walked over, not the
// whole set, except a filtered total, which has to count every match.

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
  /**
   * The sort values of an indexed record never change (an upsert of an indexed id then only
   * swaps the object): no key is kept per record. Deleting then takes the record, not its id.
   */
  fixedKeys?: boolean;
}

/** What reads cost, for tests that assert O(page) without timing anything. */
export interface IndexMetrics {
  /** Key comparisons made while bisecting and inserting. */
  comparisons: number;
  /** Records looked at while walking a page (filter calls or items copied). */
  visited: number;
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

/** A slot: chunk number and place within it. */
interface Slot {
  chunk: number;
  at: number;
}

/** Records per chunk, at most; a full chunk splits in two. */
const chunkSize = 1024;

export class KeysetIndex<R> {
  readonly metrics: IndexMetrics = { comparisons: 0, visited: 0 };
  /** Sorted, each non-empty and at most chunkSize long; concatenated, they are the order. */
  private chunks: R[][] = [];
  private count = 0;
  /** The key each record was indexed with (null for fixed keys, computed when needed). */
  private readonly keys: Map<RecordId, KeysetPosition> | null;
  private readonly idOf: (record: R) => RecordId;
  private readonly fields: readonly SortField<R>[];
  private readonly idSign: 1 | -1;
  private readonly signs: readonly (1 | -1)[];
  /** A record read as a side of a comparison: its fields' values (fixed keys: they are its key). */
  private readonly recordSide: SideReader<R>;

  constructor(options: KeysetIndexOptions<R>) {
    this.idOf = options.id;
    this.fields = [...options.fields];
    this.signs = this.fields.map((field) => (field.direction === 'desc' ? -1 : 1));
    const idDirection = options.idDirection ?? this.fields.at(-1)?.direction ?? 'asc';
    this.idSign = idDirection === 'desc' ? -1 : 1;
    this.keys = options.fixedKeys === true ? null : new Map();
    this.recordSide = { value: (record, field) => this.fields[field]!.value(record), id: this.idOf };
  }

  get size(): number {
    return this.count;
  }

  /** The sort spec this index orders by, as `sort` strings (`-created_at`). */
  get spec(): string[] {
    return this.fields.map((field) => (field.direction === 'desc' ? `-${field.name}` : field.name));
  }

  resetMetrics(): void {
    this.metrics.comparisons = 0;
    this.metrics.visited = 0;
  }

  keyOf(record: R): KeysetPosition {
    return { values: this.fields.map((field) => field.value(record)), id: this.idOf(record) };
  }

  /** Inserts the record, or moves it to its new place when a record with its id is indexed. */
  upsert(record: R): void {
    const key = this.keyOf(record);
    if (this.keys === null) {
      // Fixed keys: an indexed record is found at its own key; only the object is swapped.
      const slot = this.firstAfter(key, true);
      const found = this.chunks[slot.chunk]?.[slot.at];
      if (found !== undefined && this.idOf(found) === key.id) {
        this.chunks[slot.chunk]![slot.at] = record;
        return;
      }
      this.insertAt(slot, record);
      return;
    }
    this.remove(key.id);
    this.keys.set(key.id, key);
    this.insertAt(this.firstAfter(key, true), record);
  }

  /**
   * Replaces the content with these records (each id once: a collection's records), with one
   * sort. A fixed-key index sorts the records themselves, comparing their values as it goes: a
   * key object per record would be garbage at once, and at a million records the collector's
   * work on them cost more than the sort.
   */
  load(records: Iterable<R>): void {
    this.clear();
    let sorted: R[];
    if (this.keys === null) {
      sorted = Array.from(records).sort((a, b) => this.compareRecords(a, b));
    } else {
      const keys = this.keys;
      const entries = Array.from(records, (record) => ({ record, key: this.keyOf(record) }));
      entries.sort((a, b) => this.compare(a.key, b.key));
      sorted = entries.map((entry) => {
        keys.set(entry.key.id, entry.key);
        return entry.record;
      });
    }
    for (let i = 0; i < sorted.length; i += chunkSize) this.chunks.push(sorted.slice(i, i + chunkSize));
    this.count = sorted.length;
  }

  /** Removes the record with this id; a fixed-key index needs the record itself to find it. */
  delete(id: RecordId, record?: R): boolean {
    if (this.keys !== null) return this.remove(id);
    if (record === undefined) throw new Error('KeysetIndex: a fixed-key index deletes by record');
    const slot = this.firstAfter(this.keyOf(record), true);
    const found = this.chunks[slot.chunk]?.[slot.at];
    if (found === undefined || this.idOf(found) !== id) return false;
    this.removeAt(slot);
    return true;
  }

  clear(): void {
    this.chunks = [];
    this.count = 0;
    this.keys?.clear();
  }

  /** Records in order from the first. */
  *values(): IterableIterator<R> {
    for (const chunk of this.chunks) yield* chunk;
  }

  /** `limit` matching records after skipping `offset` matching ones, and how many match in all. */
  page(offset: number, limit: number, filter?: (record: R) => boolean): OffsetPage<R> {
    if (filter === undefined) {
      const items: R[] = [];
      // Whole chunks before the offset are skipped by their length.
      let chunk = 0;
      let skip = Math.max(0, offset);
      while (chunk < this.chunks.length && skip >= this.chunks[chunk]!.length) skip -= this.chunks[chunk++]!.length;
      for (; chunk < this.chunks.length && items.length < limit; chunk += 1, skip = 0) {
        const records = this.chunks[chunk]!;
        for (let i = skip; i < records.length && items.length < limit; i += 1) {
          this.metrics.visited += 1;
          items.push(records[i]!);
        }
      }
      return { items, total: this.count };
    }
    // The total of a filtered list needs every match counted; the page itself is gathered on the way.
    const items: R[] = [];
    let total = 0;
    for (const record of this.values()) {
      this.metrics.visited += 1;
      if (!filter(record)) continue;
      if (total >= offset && items.length < limit) items.push(record);
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
    const start = position === null ? { chunk: 0, at: 0 } : this.firstAfter(position, false);
    for (let chunk = start.chunk, at = start.at; chunk < this.chunks.length; chunk += 1, at = 0) {
      const records = this.chunks[chunk]!;
      for (; at < records.length; at += 1) {
        const record = records[at]!;
        this.metrics.visited += 1;
        if (filter !== undefined && !filter(record)) continue;
        if (items.length === limit) return { items, hasMore: true, last: this.lastKey(items) };
        items.push(record);
      }
    }
    return { items, hasMore: false, last: this.lastKey(items) };
  }

  private keyAt(record: R): KeysetPosition {
    return this.keys === null ? this.keyOf(record) : this.keys.get(this.idOf(record))!;
  }

  private lastKey(items: readonly R[]): KeysetPosition | null {
    const last = items.at(-1);
    return last === undefined ? null : this.keyAt(last);
  }

  private remove(id: RecordId): boolean {
    const key = this.keys?.get(id);
    if (key === undefined) return false;
    // Keys are unique (the id breaks ties), so bisection finds the record's exact slot.
    this.removeAt(this.firstAfter(key, true));
    this.keys!.delete(id);
    return true;
  }

  private insertAt(slot: Slot, record: R): void {
    this.count += 1;
    const chunk = this.chunks[slot.chunk];
    if (chunk === undefined) {
      // Past the last chunk: append to it while it has room.
      const last = this.chunks.at(-1);
      if (last !== undefined && last.length < chunkSize) last.push(record);
      else this.chunks.push([record]);
      return;
    }
    chunk.splice(slot.at, 0, record);
    if (chunk.length > chunkSize) this.chunks.splice(slot.chunk + 1, 0, chunk.splice(chunk.length >>> 1));
  }

  private removeAt(slot: Slot): void {
    const chunk = this.chunks[slot.chunk]!;
    chunk.splice(slot.at, 1);
    if (chunk.length === 0) this.chunks.splice(slot.chunk, 1);
    this.count -= 1;
  }

  /** First slot whose key is greater than `key` (or, with `inclusive`, greater or equal); past the end when none. */
  private firstAfter(key: KeysetPosition, inclusive: boolean): Slot {
    const before = (record: R): boolean => {
      const order = this.compareToKey(record, key);
      return order < 0 || (order === 0 && !inclusive);
    };
    // The first chunk whose last record is not before the key holds the slot.
    let low = 0;
    let high = this.chunks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(this.chunks[middle]!.at(-1)!)) low = middle + 1;
      else high = middle;
    }
    const records = this.chunks[low];
    if (records === undefined) return { chunk: low, at: 0 };
    // The chunk's last record is known not to be before the key: bisect the rest.
    let from = 0;
    let to = records.length - 1;
    while (from < to) {
      const middle = (from + to) >>> 1;
      if (before(records[middle]!)) from = middle + 1;
      else to = middle;
    }
    return { chunk: low, at: from };
  }

  /** compare() of two records' keys, without making them (fixed keys only: their values are the keys). */
  private compareRecords(a: R, b: R): number {
    return this.compareSides(a, this.recordSide, b, this.recordSide);
  }

  /**
   * compare() of an indexed record's key with a key. A fixed-key record's values are read as
   * they are: a bisection compares some twenty records on every write, and making each one's
   * key first was most of an insert's cost.
   */
  private compareToKey(record: R, key: KeysetPosition): number {
    if (this.keys !== null) return this.compare(this.keys.get(this.idOf(record))!, key);
    return this.compareSides(record, this.recordSide, key, keySide);
  }

  private compare(a: KeysetPosition, b: KeysetPosition): number {
    return this.compareSides(a, keySide, b, keySide);
  }

  /** The index's order of two sides, a record or a key each, read through their sides' readers. */
  private compareSides<A, B>(a: A, readA: SideReader<A>, b: B, readB: SideReader<B>): number {
    this.metrics.comparisons += 1;
    for (let i = 0; i < this.signs.length; i += 1) {
      const order = compareValues(readA.value(a, i), readB.value(b, i));
      if (order !== 0) return order * this.signs[i]!;
    }
    return compareValues(readA.id(a), readB.id(b)) * this.idSign;
  }
}

/** How a comparison reads one side: its sort value of each field, and its id. */
interface SideReader<S> {
  value(side: S, field: number): SortValue;
  id(side: S): RecordId;
}

const keySide: SideReader<KeysetPosition> = { value: (key, field) => key.values[field] ?? null, id: (key) => key.id };

const typeRank: Record<string, number> = { object: 0, boolean: 1, number: 2, string: 3 };

/**
 * A total order over sort values: null first, then booleans, numbers, strings (each by value;
 * strings by code unit, the same on every machine). Values of another type from a decoded cursor
 * still compare, they just land at one end.
 */
export function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  // The common cases first, without the type ranks (a load sorts a million keys with this).
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number' && !Number.isNaN(a) && !Number.isNaN(b)) return a < b ? -1 : 1;
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
