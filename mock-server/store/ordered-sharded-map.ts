// A ShardedMap that iterates as a Map does, in insertion order (setting a key already present
// keeps its place; a key deleted and set again goes last), for the record maps a snapshot lists
// in the order the records were made. The keys are logged as they are first set, in chunks, so
// appending never copies the whole log (an array that grows copies itself). A delete leaves the
// key in the log and counts it stale (a key set again after its delete is then logged twice: the
// later one stands); the log is compacted before an iteration, and once its stale entries
// outnumber the live keys, so a map that keeps deleting and adding (quotes, idempotency records)
// holds at most about twice its keys: a compaction costs O(n) once per n deletes, as a Map's own
// rehash of its deleted entries does. As with any iterator here, what changes while it runs is
// undefined.
import { ShardedMap } from './sharded-map.js';

const chunkSize = 8192;

export class OrderedShardedMap<K extends string | number, V> implements Iterable<[K, V]> {
  private readonly map = new ShardedMap<K, V>();
  private log: K[][] = [[]];
  private stale = 0;

  constructor(entries?: Iterable<readonly [K, V]>) {
    if (entries !== undefined) for (const [key, value] of entries) this.set(key, value);
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): this {
    if (this.map.set(key, value)) {
      // A Map keeps -0 as 0.
      if (key === 0) key = 0 as K;
      let last = this.log[this.log.length - 1]!;
      if (last.length === chunkSize) {
        last = [];
        this.log.push(last);
      }
      last.push(key);
    }
    return this;
  }

  delete(key: K): boolean {
    const deleted = this.map.delete(key);
    if (deleted) {
      this.stale += 1;
      if (this.stale > Math.max(chunkSize, this.map.size)) this.compact();
    }
    return deleted;
  }

  clear(): void {
    this.map.clear();
    this.log = [[]];
    this.stale = 0;
  }

  *keys(): IterableIterator<K> {
    if (this.stale > 0) this.compact();
    for (const chunk of this.log) yield* chunk;
  }

  *values(): IterableIterator<V> {
    for (const key of this.keys()) yield this.map.get(key)!;
  }

  *entries(): IterableIterator<[K, V]> {
    for (const key of this.keys()) yield [key, this.map.get(key)!];
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  /** For tests: see ShardedMap.largestShard. */
  largestShard(): number {
    return this.map.largestShard();
  }

  /** Keys in the log, stale ones included: for tests that check it stays bounded. */
  loggedKeys(): number {
    return this.log.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  /** Keeps each present key's last entry, in order. */
  private compact(): void {
    const seen = new Set<K>();
    const kept: K[] = [];
    for (let c = this.log.length - 1; c >= 0; c -= 1) {
      const chunk = this.log[c]!;
      for (let i = chunk.length - 1; i >= 0; i -= 1) {
        const key = chunk[i]!;
        if (!seen.has(key) && this.map.has(key)) {
          seen.add(key);
          kept.push(key);
        }
      }
    }
    kept.reverse();
    this.log = [];
    for (let at = 0; at < kept.length; at += chunkSize) this.log.push(kept.slice(at, at + chunkSize));
    if (this.log.length === 0) this.log.push([]);
    this.stale = 0;
  }
}
