// The shapes of a key's usage (requests per UTC day and month, counters per operation) and the
// UTC calendar they roll over on; key-meter.ts keeps and changes them.
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

export function utcDayStart(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}
export function utcMonthStart(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
}
export function nextUtcDay(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
}
export function nextUtcMonth(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
}
