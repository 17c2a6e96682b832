// The records whose time-driven transitions (an expiry, confirmations reached, a payment window)
// fall due, ordered by that instant in a binary min-heap: a tick takes only what is due, in
// O(due · log n), instead of looking at every record. The domain says when a record is next due
// (`dueAt`, a pure function of the record) and schedules the record whenever that instant may
// have changed; an entry whose instant is no longer the record's is stale and is dropped when it
// comes up, so nothing needs to be found and removed on a change.

export interface DueQueueOptions<R> {
  /** Epoch ms at which the record's next time-driven transition falls due; null when none is pending. */
  dueAt: (record: R) => number | null;
  /** The order in which records due in one tick are settled: their creation order, as a scan would. */
  creationOrder: (a: R, b: R) => number;
}

/** What ticks cost, for tests that assert O(due) without timing anything. */
export interface DueQueueMetrics {
  /** Entries taken off the queue (due or stale). */
  taken: number;
}

export class DueQueue<R> {
  readonly metrics: DueQueueMetrics = { taken: 0 };
  // Parallel arrays: instants (unboxed doubles) and records; entry i's children are 2i+1, 2i+2.
  private readonly times: number[] = [];
  private readonly records: R[] = [];

  constructor(private readonly options: DueQueueOptions<R>) {}

  /** Entries held, stale ones included. */
  get size(): number {
    return this.times.length;
  }

  /** Call after a change that may move the record's due instant (creation, a transition, a new transaction). */
  schedule(record: R): void {
    const at = this.options.dueAt(record);
    if (at === null) return;
    this.times.push(at);
    this.records.push(record);
    this.up(this.times.length - 1);
  }

  /**
   * The records due by `nowMs`, each once, in creation order; their entries are removed (the
   * caller settles them, and each transition schedules the record's next instant).
   */
  takeDue(nowMs: number): R[] {
    const due = new Set<R>();
    while (this.times.length > 0 && this.times[0]! <= nowMs) {
      const at = this.times[0]!;
      const record = this.pop();
      this.metrics.taken += 1;
      if (this.options.dueAt(record) === at) due.add(record);
    }
    return [...due].sort(this.options.creationOrder);
  }

  clear(): void {
    this.times.length = 0;
    this.records.length = 0;
  }

  private pop(): R {
    const top = this.records[0]!;
    const lastTime = this.times.pop()!;
    const lastRecord = this.records.pop()!;
    if (this.times.length > 0) {
      this.times[0] = lastTime;
      this.records[0] = lastRecord;
      this.down(0);
    }
    return top;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >>> 1;
      if (this.times[parent]! <= this.times[i]!) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.times.length;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < n && this.times[left]! < this.times[smallest]!) smallest = left;
      if (right < n && this.times[right]! < this.times[smallest]!) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }

  private swap(a: number, b: number): void {
    [this.times[a], this.times[b]] = [this.times[b]!, this.times[a]!];
    [this.records[a], this.records[b]] = [this.records[b]!, this.records[a]!];
  }
}
