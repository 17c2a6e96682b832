// Usage of each key: requests per UTC day and month (what quotas count) and counters per
// operation (requests, errors, billable units, duration), which GET /private/usage reports.
export interface OperationUsage {
  requests: number;
  errors: number;
  billable_units: number;
  total_duration_ms: number;
}

export interface QuotaUse {
  used: number;
  resetsAt: Date;
}

export interface RequestsUsed {
  day: number;
  month: number;
}

interface KeyUsage {
  day: { start: number; used: number };
  month: { start: number; used: number };
  operations: Map<string, OperationUsage>;
}

export class UsageLedger {
  private readonly byKey = new Map<number, KeyUsage>();

  /** Counts one request against the key's day and month (call before answering it); returns the use after it. */
  countRequest(keyId: number, now: Date): RequestsUsed {
    const usage = this.current(keyId, now);
    usage.day.used += 1;
    usage.month.used += 1;
    return { day: usage.day.used, month: usage.month.used };
  }

  /** Requests counted in the key's current day and month. */
  used(keyId: number, now: Date): RequestsUsed {
    const usage = this.current(keyId, now);
    return { day: usage.day.used, month: usage.month.used };
  }

  /** Records the outcome of a request of an operation. */
  recordOutcome(keyId: number, operationId: string, outcome: { error: boolean; billable: boolean; durationMs: number }, now: Date): void {
    const usage = this.current(keyId, now);
    const counters = usage.operations.get(operationId) ?? { requests: 0, errors: 0, billable_units: 0, total_duration_ms: 0 };
    counters.requests += 1;
    if (outcome.error) counters.errors += 1;
    if (outcome.billable) counters.billable_units += 1;
    counters.total_duration_ms += Math.round(outcome.durationMs);
    usage.operations.set(operationId, counters);
  }

  day(keyId: number, now: Date): QuotaUse {
    const usage = this.current(keyId, now);
    return { used: usage.day.used, resetsAt: new Date(nextUtcDay(now)) };
  }

  month(keyId: number, now: Date): QuotaUse {
    const usage = this.current(keyId, now);
    return { used: usage.month.used, resetsAt: new Date(nextUtcMonth(now)) };
  }

  operations(keyId: number, now: Date): Record<string, OperationUsage> {
    return Object.fromEntries([...this.current(keyId, now).operations].sort(([a], [b]) => a.localeCompare(b)));
  }

  clear(): void {
    this.byKey.clear();
  }

  // Windows roll over on the (virtual) clock: a new UTC day or month starts from zero.
  private current(keyId: number, now: Date): KeyUsage {
    const dayStart = utcDayStart(now);
    const monthStart = utcMonthStart(now);
    let usage = this.byKey.get(keyId);
    if (usage === undefined) {
      usage = { day: { start: dayStart, used: 0 }, month: { start: monthStart, used: 0 }, operations: new Map() };
      this.byKey.set(keyId, usage);
    }
    if (usage.day.start !== dayStart) usage.day = { start: dayStart, used: 0 };
    if (usage.month.start !== monthStart) {
      usage.month = { start: monthStart, used: 0 };
      usage.operations = new Map();
    }
    return usage;
  }
}

function utcDayStart(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}
function utcMonthStart(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
}
export function nextUtcDay(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
}
export function nextUtcMonth(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
}
