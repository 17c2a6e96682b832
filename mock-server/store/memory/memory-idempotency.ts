// Idempotency records in process memory. Each caller's records are also kept in the order they
// were made, which is their expiry order (one window per family), so the bound per caller and the
// instant its earliest record frees a place are read from the front of that order.
import { DueQueue } from '../due-queue.js';
import type { FinishedIdempotencyRecord, IdempotencySlot, IdempotencyStore, Reservation, StoredResponse } from '../sandbox-store.js';
import { OrderedShardedMap } from '../ordered-sharded-map.js';

interface IdempotencyRecord {
  readonly id: string;
  readonly caller: string;
  fingerprint: string;
  reservedAtMs: number;
  readonly expiresAtMs: number;
  response: StoredResponse | null;
  readonly seq: number;
}

const slotId = (slot: IdempotencySlot) => `${slot.caller}\n${slot.key}`;

export class MemoryIdempotency implements IdempotencyStore {
  private readonly records = new OrderedShardedMap<string, IdempotencyRecord>();
  private readonly byCaller = new Map<string, Set<IdempotencyRecord>>();
  private readonly expiries = new DueQueue<IdempotencyRecord>({ dueAt: (r) => r.expiresAtMs, creationOrder: (a, b) => a.seq - b.seq });
  private seq = 0;

  async reserve(slot: IdempotencySlot, fingerprint: string, nowMs: number, expiresAtMs: number, limits: { maxPerCaller: number; pendingLeaseMs: number }): Promise<Reservation> {
    const id = slotId(slot);
    const held = this.records.get(id);
    if (held !== undefined && held.expiresAtMs > nowMs) {
      if (held.response !== null) return { kind: 'stored', response: held.response };
      if (nowMs - held.reservedAtMs < limits.pendingLeaseMs) return { kind: 'pending', fingerprint: held.fingerprint };
      held.fingerprint = fingerprint; // its request never finished: the lease ran out
      held.reservedAtMs = nowMs;
      return { kind: 'reserved' };
    }
    if (held !== undefined) this.remove(held);
    const mine = this.byCaller.get(slot.caller) ?? new Set<IdempotencyRecord>();
    for (const oldest of mine) {
      if (oldest.expiresAtMs > nowMs) break;
      this.remove(oldest);
    }
    if (mine.size >= limits.maxPerCaller) {
      const first = mine.values().next().value as IdempotencyRecord;
      return { kind: 'full', limit: limits.maxPerCaller, retryAtMs: first.expiresAtMs };
    }
    const record: IdempotencyRecord = { id, caller: slot.caller, fingerprint, reservedAtMs: nowMs, expiresAtMs, response: null, seq: this.seq++ };
    this.records.set(id, record);
    mine.add(record);
    this.byCaller.set(slot.caller, mine);
    this.expiries.schedule(record);
    return { kind: 'reserved' };
  }

  async complete(slot: IdempotencySlot, response: StoredResponse): Promise<void> {
    const record = this.records.get(slotId(slot));
    if (record !== undefined) record.response = response;
  }

  async release(slot: IdempotencySlot): Promise<void> {
    const record = this.records.get(slotId(slot));
    if (record !== undefined && record.response === null) this.remove(record);
  }

  async abandonPending(): Promise<void> {
    for (const record of [...this.records.values()]) if (record.response === null) this.remove(record);
  }

  async finished(nowMs: number): Promise<FinishedIdempotencyRecord[]> {
    const finished: FinishedIdempotencyRecord[] = [];
    for (const record of this.records.values()) {
      if (record.response === null || record.expiresAtMs <= nowMs) continue;
      const { caller, reservedAtMs, expiresAtMs, response } = record;
      finished.push({ caller, key: record.id.slice(caller.length + 1), reservedAtMs, expiresAtMs, response });
    }
    return finished;
  }

  async restore(record: FinishedIdempotencyRecord): Promise<void> {
    const { caller, reservedAtMs, expiresAtMs, response } = record;
    const stored: IdempotencyRecord = { id: slotId(record), caller, fingerprint: response.fingerprint, reservedAtMs, expiresAtMs, response, seq: this.seq++ };
    this.records.set(stored.id, stored);
    const mine = this.byCaller.get(record.caller) ?? new Set<IdempotencyRecord>();
    mine.add(stored);
    this.byCaller.set(record.caller, mine);
    this.expiries.schedule(stored);
  }

  sweep(nowMs: number): number {
    let removed = 0;
    for (const record of this.expiries.takeDue(nowMs)) {
      if (this.records.get(record.id) !== record) continue;
      this.remove(record);
      removed += 1;
    }
    return removed;
  }

  get size(): number {
    return this.records.size;
  }

  clear(): void {
    this.records.clear();
    this.byCaller.clear();
    this.expiries.clear();
  }

  private remove(record: IdempotencyRecord): void {
    if (this.records.get(record.id) === record) this.records.delete(record.id);
    const mine = this.byCaller.get(record.caller);
    mine?.delete(record);
    if (mine?.size === 0) this.byCaller.delete(record.caller);
  }
}
