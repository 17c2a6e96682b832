// Cells in process memory: one map per kind, and a heap of expiry instants that a sweep takes
// from (an entry is scheduled again only when its expiry moves, so a cell updated on every
// request, like a key's meter, adds no heap entry per request). Updates run synchronously, so
// nothing interleaves between the read and the write of a cell. A durable store holding its
// journal keeps its cells here too (held-cells.ts), told of each cell an update or claim changed.
import { DueQueue } from '../due-queue.js';
import type { CellChange, CellKind, Cells } from '../sandbox-store.js';

interface Cell {
  readonly kind: CellKind;
  readonly key: string;
  value: unknown;
  expiresAtMs: number;
  readonly seq: number;
}

export class MemoryCells {
  private readonly kinds = new Map<CellKind, Map<string, Cell>>();
  private readonly expiries = new DueQueue<Cell>({ dueAt: (cell) => cell.expiresAtMs, creationOrder: (a, b) => a.seq - b.seq });
  private seq = 0;

  /** `onChange`: told the cell an update or a successful claim wrote (not a sweep or a clear). */
  constructor(private readonly onChange?: (kind: CellKind, key: string) => void) {}

  of<T>(kind: CellKind): Cells<T> {
    let cells = this.kinds.get(kind);
    if (cells === undefined) {
      cells = new Map();
      this.kinds.set(kind, cells);
    }
    const map = cells;
    const create = (key: string, value: unknown, expiresAtMs: number) => {
      const created: Cell = { kind, key, value, expiresAtMs, seq: this.seq++ };
      map.set(key, created);
      this.expiries.schedule(created);
      this.onChange?.(kind, key);
    };
    return {
      get: async (key, nowMs) => live(map.get(key), nowMs)?.value as T | undefined,
      update: async <R>(key: string, nowMs: number, change: (current: T | undefined) => CellChange<T, R>) => {
        const cell = live(map.get(key), nowMs);
        const next = change(cell?.value as T | undefined);
        if (cell === undefined) {
          create(key, next.value, next.expiresAtMs);
        } else {
          cell.value = next.value;
          if (cell.expiresAtMs !== next.expiresAtMs) {
            cell.expiresAtMs = next.expiresAtMs;
            this.expiries.schedule(cell);
          }
          this.onChange?.(kind, key);
        }
        return next.result;
      },
      claim: async (key, value, nowMs, expiresAtMs) => {
        if (live(map.get(key), nowMs) !== undefined) return false;
        create(key, value, expiresAtMs);
        return true;
      },
      entries: async (nowMs) => {
        const entries = [];
        for (const cell of map.values()) {
          if (cell.expiresAtMs > nowMs) entries.push({ key: cell.key, value: structuredClone(cell.value) as T, expiresAtMs: cell.expiresAtMs });
        }
        return entries;
      },
    };
  }

  /** The cell as held, expired or not; undefined once swept or never written. */
  peek(kind: CellKind, key: string): { value: unknown; expiresAtMs: number } | undefined {
    return this.kinds.get(kind)?.get(key);
  }

  sweep(nowMs: number): number {
    let removed = 0;
    for (const cell of this.expiries.takeDue(nowMs)) {
      const map = this.kinds.get(cell.kind);
      if (map?.get(cell.key) === cell) {
        map.delete(cell.key);
        removed += 1;
      }
    }
    return removed;
  }

  get size(): number {
    let size = 0;
    for (const map of this.kinds.values()) size += map.size;
    return size;
  }

  clear(): void {
    for (const map of this.kinds.values()) map.clear();
    this.expiries.clear();
  }
}

function live(cell: Cell | undefined, nowMs: number): Cell | undefined {
  return cell !== undefined && cell.expiresAtMs > nowMs ? cell : undefined;
}
