// A bounded in-memory map whose entries expire on the virtual clock: idempotency records, used
// nonces and rate windows live here, so memory stays bounded however long the mock runs.
import type { Clock } from '../clock.js';

export interface ExpiringStore<V> {
  get(key: string): Promise<V | undefined>;
  /** Stores the value until `ttlMs` from now on the clock. */
  set(key: string, value: V, ttlMs: number): Promise<void>;
  /** Stores only when the key is absent (or expired); true when it stored. */
  setIfAbsent(key: string, value: V, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  clear(): Promise<void>;
}

export class ExpiringMap<V> implements ExpiringStore<V> {
  // Entries are kept in insertion order, which is expiry order for one TTL: a sweep stops at the
  // first live entry; any expired entry behind it goes when read or when the bound is reached.
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 100_000,
  ) {}

  async get(key: string): Promise<V | undefined> {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.clock.nowMs()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  async set(key: string, value: V, ttlMs: number): Promise<void> {
    this.sweep();
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.clock.nowMs() + ttlMs });
    // Past the bound, the oldest entries go first.
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  async setIfAbsent(key: string, value: V, ttlMs: number): Promise<boolean> {
    if ((await this.get(key)) !== undefined) return false;
    await this.set(key, value, ttlMs);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async clear(): Promise<void> {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private sweep(): void {
    const now = this.clock.nowMs();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(key);
    }
  }
}
