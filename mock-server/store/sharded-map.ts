// A lookup split into 8 Maps by a hash of the key, for the indexes that grow with every record a
// long-lived sandbox keeps. V8 grows a Map by moving all its entries into a table twice the size
// in one step: about 7 ms at 131,072 entries and 45 ms at a million, during which nothing else
// runs and every connection of the server waits (a deposit create that grew three such maps at
// once held them for the sum). Split, each shard holds an 8th of the entries and grows on its
// own, at its own moment, so the longest step is an 8th as long. Why not more: every shard's
// growing end is one more place in memory a write lands on; split 64 ways, a deposit create over
// HTTP cost about 10 % more CPU, split 8 ways no more than before, measurably. It keeps no
// order: OrderedShardedMap adds insertion order for the maps that are listed.

const shardBits = 3;
const shardCount = 1 << shardBits;

export class ShardedMap<K extends string | number, V> {
  // Created on first use, so a small map holds only the shards its keys fell in.
  private shards = new Array<Map<K, V> | undefined>(shardCount);
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: K): V | undefined {
    return this.shards[shardOf(key)]?.get(key);
  }

  has(key: K): boolean {
    return this.shards[shardOf(key)]?.has(key) ?? false;
  }

  /** Sets the key's value; true when the key was not there before. */
  set(key: K, value: V): boolean {
    const at = shardOf(key);
    const shard = this.shards[at];
    if (shard === undefined) {
      this.shards[at] = new Map([[key, value]]);
    } else {
      const before = shard.size;
      shard.set(key, value);
      if (shard.size === before) return false;
    }
    this.count += 1;
    return true;
  }

  delete(key: K): boolean {
    const deleted = this.shards[shardOf(key)]?.delete(key) ?? false;
    if (deleted) this.count -= 1;
    return deleted;
  }

  clear(): void {
    this.shards = new Array<Map<K, V> | undefined>(shardCount);
    this.count = 0;
  }

  /** Entries of the fullest shard: for tests that check the spread without timing anything. */
  largestShard(): number {
    let largest = 0;
    for (const shard of this.shards) largest = Math.max(largest, shard?.size ?? 0);
    return largest;
  }
}

/**
 * A shard for the key: FNV-1a over a string's last 8 UTF-16 units (the keys kept here, ids,
 * order ids, addresses and memos, differ at their end, by a counter or random characters, and a
 * short hash keeps a lookup cheap), or a mix of an integer's bits.
 */
function shardOf(key: string | number): number {
  if (typeof key === 'number') {
    // `| 0` takes NaN and -0 to 0, as a Map compares them; any other float picks some shard.
    const n = key | 0;
    return Math.imul(n ^ (n >>> 16), 0x45d9f3b) >>> (32 - shardBits);
  }
  let hash = 0x811c9dc5;
  for (let i = Math.max(0, key.length - 8); i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> (32 - shardBits);
}
