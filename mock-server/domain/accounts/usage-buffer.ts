// Outcome counters per key and operation (GET /private/usage), counted in this process as each
// answer is written and added to the store in one atomic update per key at the next flush: on the
// sandbox's timer beat, and before a usage report is read. Limits and quotas do not wait for it:
// they are the key's meter, changed in the store before each request runs (the HTTP pipeline's
// rate limit).
import type { Clock } from '../../clock.js';
import { addUsage, countOutcome, meterExpiresAt, noUsage, type KeyUsage } from './key-meter.js';
import type { OperationUsage } from './usage.js';
import type { Cells } from '../../store/sandbox-store.js';

export class UsageBuffer {
  private pending = new Map<number, Map<string, OperationUsage>>();

  constructor(
    private readonly usage: Cells<KeyUsage>,
    private readonly clock: Clock,
  ) {}

  count(keyId: number, operationId: string, outcome: { error: boolean; billable: boolean; durationMs: number }): void {
    let operations = this.pending.get(keyId);
    if (operations === undefined) {
      operations = new Map();
      this.pending.set(keyId, operations);
    }
    let counters = operations.get(operationId);
    if (counters === undefined) {
      counters = noUsage();
      operations.set(operationId, counters);
    }
    countOutcome(counters, outcome);
  }

  /** Adds what was counted (of one key, or of all) to the store. */
  async flush(keyId?: number): Promise<void> {
    const keys = keyId === undefined ? [...this.pending.keys()] : this.pending.has(keyId) ? [keyId] : [];
    for (const key of keys) {
      const counted = this.pending.get(key)!;
      this.pending.delete(key);
      const nowMs = this.clock.nowMs();
      await this.usage.update(String(key), nowMs, (usage) => ({ value: addUsage(usage, nowMs, counted), expiresAtMs: meterExpiresAt(nowMs), result: undefined }));
    }
  }

  /** Forgets what was counted and not yet added (the sandbox reset). */
  clear(): void {
    this.pending = new Map();
  }

  /** The key's usage as stored, with what this process counted added first. */
  async read(keyId: number): Promise<KeyUsage | undefined> {
    await this.flush(keyId);
    return this.usage.get(String(keyId), this.clock.nowMs());
  }
}
