// The memory engine: the default for `npm start`, the library and the tests. Everything lives in
// this process and is gone when it ends.
import type { ClockSetting } from '../../clock.js';
import type { CellKind, Cells, SandboxStore } from '../sandbox-store.js';
import { MemoryCells } from './memory-cells.js';
import { MemoryIdempotency } from './memory-idempotency.js';
import { MemoryWebhookStore } from './memory-webhooks.js';

export class MemoryStore implements SandboxStore {
  readonly engine = 'memory';
  readonly location = 'memory';
  readonly idempotency = new MemoryIdempotency();
  readonly webhooks = new MemoryWebhookStore();
  private readonly allCells = new MemoryCells();
  private clockSetting: ClockSetting | undefined;
  readonly clock = {
    load: async () => this.clockSetting,
    save: async (setting: ClockSetting) => {
      this.clockSetting = { ...setting };
    },
  };

  cells<T>(kind: CellKind): Cells<T> {
    return this.allCells.of<T>(kind);
  }

  async sweepExpired(nowMs: number): Promise<number> {
    return this.allCells.sweep(nowMs) + this.idempotency.sweep(nowMs);
  }

  async countExpiring(): Promise<number> {
    return this.allCells.size + this.idempotency.size;
  }

  async clear(): Promise<void> {
    this.allCells.clear();
    this.idempotency.clear();
    await this.webhooks.clear();
    this.clockSetting = undefined;
  }

  async close(): Promise<void> {}
}
