// The faults injected into the mock's own API operations (control injectFault): a table by
// operationId, and the choice of the fault that acts on one call. Each fault draws from its own
// seeded stream (whether a `probability` fault fires, where in a latency range a call lands), so
// the same calls get the same faults run after run. The table is the mock process's, like the
// webhook faults: a reset of the sandbox clears it.
import { createRandom, type Random } from '../random.js';

export type FaultFamily = 'v3' | 'v1';

export interface FaultErrorAnswer {
  status: number;
  code: string;
  message: string;
  details?: Record<string, string[]>;
  retryAfterSeconds?: number;
}

export interface FaultSpec {
  operation: string;
  family: FaultFamily;
  keyId: number | null;
  siteId: number | null;
  latency: { min: number; max: number } | null;
  error: FaultErrorAnswer | null;
  reset: boolean;
  times: number | null;
  probability: number | null;
  /** The stream's seed; default one derived from the sandbox's seed and the fault's id. */
  seed: number | null;
}

export interface OperationFault extends Omit<FaultSpec, 'times' | 'seed'> {
  id: number;
  timesLeft: number | null;
  seed: number;
  applied: number;
  createdAt: Date;
}

/** What a fault does to one call: wait `delayMs`, then fail with `error`, reset, or let the call through. */
export interface FaultAction {
  faultId: number;
  delayMs: number;
  error: FaultErrorAnswer | null;
  reset: boolean;
}

/** The call a fault may act on: its operation and who made it. */
export interface FaultedCall {
  operation: string;
  keyId: number | undefined;
  siteId: number | undefined;
}

interface Entry {
  fault: OperationFault;
  random: Random;
}

/** Seeds are the control contract's Seed: a non-negative 32-bit integer. */
const seedRange = 2 ** 31;

export class OperationFaults {
  private readonly byOperation = new Map<string, Entry[]>();
  private lastId = 0;

  constructor(
    private readonly clock: { now(): Date },
    /** The sandbox's seed now, from which a fault without a seed of its own derives one. */
    private readonly sandboxSeed: () => number,
  ) {}

  add(spec: FaultSpec): OperationFault {
    const id = (this.lastId += 1);
    const seed = spec.seed ?? derivedSeed(this.sandboxSeed(), id);
    const fault: OperationFault = {
      operation: spec.operation,
      family: spec.family,
      keyId: spec.keyId,
      siteId: spec.siteId,
      latency: spec.latency,
      error: spec.error,
      reset: spec.reset,
      probability: spec.probability,
      id,
      timesLeft: spec.times,
      seed,
      applied: 0,
      createdAt: this.clock.now(),
    };
    const entries = this.byOperation.get(spec.operation) ?? [];
    entries.push({ fault, random: createRandom(seed) });
    this.byOperation.set(spec.operation, entries);
    return { ...fault };
  }

  /** Every fault in force, oldest first. */
  list(): OperationFault[] {
    return [...this.byOperation.values()]
      .flat()
      .map((entry) => ({ ...entry.fault }))
      .sort((a, b) => a.id - b.id);
  }

  remove(id: number): boolean {
    for (const [operation, entries] of this.byOperation) {
      const index = entries.findIndex((entry) => entry.fault.id === id);
      if (index === -1) continue;
      entries.splice(index, 1);
      if (entries.length === 0) this.byOperation.delete(operation);
      return true;
    }
    return false;
  }

  /** Removes every fault; returns how many there were. Ids go on from the last one. */
  clear(): number {
    const count = this.list().length;
    this.byOperation.clear();
    return count;
  }

  /** A sandbox reset: no faults, and ids start at 1 again, as on a fresh start. */
  reset(): void {
    this.byOperation.clear();
    this.lastId = 0;
  }

  /**
   * The fault that acts on this call, if any: of the faults that match it, scoped ones before
   * unscoped ones, newer before older, the first that fires (a `probability` fault draws to
   * decide). Firing counts the call and uses up one of `times`; a used-up fault goes.
   */
  take(call: FaultedCall): FaultAction | null {
    const entries = this.byOperation.get(call.operation);
    if (entries === undefined) return null;
    const candidates = entries.filter(({ fault }) => matches(fault, call)).sort(precedence);
    for (const entry of candidates) {
      const { fault, random } = entry;
      if (fault.probability !== null && random.next() >= fault.probability) continue;
      fault.applied += 1;
      if (fault.timesLeft !== null) {
        fault.timesLeft -= 1;
        if (fault.timesLeft === 0) this.remove(fault.id);
      }
      const delayMs = fault.latency === null ? 0 : random.int(fault.latency.min, fault.latency.max);
      return { faultId: fault.id, delayMs, error: fault.error, reset: fault.reset };
    }
    return null;
  }
}

function matches(fault: OperationFault, call: FaultedCall): boolean {
  if (fault.keyId !== null && fault.keyId !== call.keyId) return false;
  if (fault.siteId !== null && fault.siteId !== call.siteId) return false;
  return true;
}

/** Scoped before unscoped, then newer (higher id) first. */
function precedence(a: Entry, b: Entry): number {
  const scoped = (fault: OperationFault) => (fault.keyId !== null || fault.siteId !== null ? 0 : 1);
  return scoped(a.fault) - scoped(b.fault) || b.fault.id - a.fault.id;
}

/** A seed per fault from the sandbox's: the same sandbox seed and fault id give the same stream. */
function derivedSeed(sandboxSeed: number, id: number): number {
  return ((Math.imul(sandboxSeed ^ 0x0fa17ed5, 0x9e3779b1) + id) >>> 0) % seedRange;
}
