// A durable store's cells (sandbox-store.ts) while this process holds the sandbox's journal
// (RecordJournal.hold()): the one process answering for the sandbox, the cells are authoritative
// in its memory, so a check-and-set is a synchronous step (memory-cells.ts) instead of a database
// transaction or round trip per request. Each cell changed is remembered until the journal's
// next write takes it (CellChangeLog) and writes its row in the transaction of the records,
// which every answer waits for (http/journal-before-answer.ts): a spent nonce or a counted
// request is on disk before the answer that depends on it leaves, as a record is.
//
// Before the hold (and in stores that share a database without holding it, test/store/), the
// store's own cells work on the database directly: heldOrDirect() picks per call.
import { MemoryCells } from './memory/memory-cells.js';
import type { CellChangeLog, CellWrite, CellWrites } from './record-journal.js';
import type { CellEntry, CellKind, Cells } from './sandbox-store.js';

/** A cell's row as the database holds it. */
export interface CellRow extends CellEntry<string> {
  kind: string;
}

export class HeldCells implements CellChangeLog {
  private readonly memory = new MemoryCells((kind, key) => this.changed.get(kind)!.add(key));
  private readonly changed = new Map<CellKind, Set<string>>();
  private readonly ofKind = new Map<CellKind, Cells<unknown>>();
  private cleared = false;
  private isHeld = false;

  /** True once the hold is taken: the cells in memory are the sandbox's. */
  get held(): boolean {
    return this.isHeld;
  }

  /** Takes up the database's cell rows (`value` JSON text) as the hold is taken. */
  hold(rows: Iterable<CellRow>): void {
    this.memory.clear();
    for (const { kind, key, value, expiresAtMs } of rows) void this.of(kind as CellKind).claim(key, JSON.parse(value), Number.NEGATIVE_INFINITY, expiresAtMs);
    for (const keys of this.changed.values()) keys.clear();
    this.isHeld = true;
  }

  of<T>(kind: CellKind): Cells<T> {
    let cells = this.ofKind.get(kind);
    if (cells === undefined) {
      this.changed.set(kind, new Set());
      const inMemory = this.memory.of(kind);
      // In key order, as the database lists them: an export reads the same before and after a restart.
      cells = { ...inMemory, entries: async (nowMs) => (await inMemory.entries(nowMs)).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) };
      this.ofKind.set(kind, cells);
    }
    return cells as Cells<T>;
  }

  take(): CellWrites {
    const rows: CellWrite[] = [];
    for (const [kind, keys] of this.changed) {
      for (const key of keys) {
        const cell = this.memory.peek(kind, key);
        rows.push({ kind, key, value: cell === undefined ? undefined : JSON.stringify(cell.value), expiresAtMs: cell?.expiresAtMs ?? 0 });
      }
      keys.clear();
    }
    const taken = { cleared: this.cleared, rows };
    this.cleared = false;
    return taken;
  }

  giveBack(taken: CellWrites): void {
    if (taken.cleared) this.cleared = true;
    for (const { kind, key } of taken.rows) this.changed.get(kind as CellKind)?.add(key);
  }

  /** Removes the cells expired at `nowMs` from memory (their rows are the database sweep's). */
  sweep(nowMs: number): number {
    return this.memory.sweep(nowMs);
  }

  get size(): number {
    return this.memory.size;
  }

  /** Empties the cells (a reset or load): the next write empties their rows first. */
  clear(): void {
    if (!this.isHeld) return;
    this.memory.clear();
    for (const keys of this.changed.values()) keys.clear();
    this.cleared = true;
  }
}

/** The store's cells of `kind`: held in memory once the hold is taken, else `direct` (the database's). */
export function heldOrDirect<T>(held: HeldCells, kind: CellKind, direct: Cells<T>): Cells<T> {
  const inMemory = held.of<T>(kind);
  const now = () => (held.held ? inMemory : direct);
  return {
    get: (key, nowMs) => now().get(key, nowMs),
    update: (key, nowMs, change) => now().update(key, nowMs, change),
    claim: (key, value, nowMs, expiresAtMs) => now().claim(key, value, nowMs, expiresAtMs),
    entries: (nowMs) => now().entries(nowMs),
  };
}
