// What the platform meters per v3 key, as two plain records the store changes atomically: the
// meter (the current rate window and the requests of the UTC day and month, what limits and
// quotas count: changed on every request, before it runs) and the usage (outcome counters per
// operation in the month, what GET /private/usage reports: counted in a buffer and added in
// batches). The rules are pure: each takes the record as stored (undefined for none) and returns
// the record to keep, changed in place where it can be: a store hands each change a value it owns
// and replaces (the port's update contract).
import type { KeyLimits } from './api-keys.js';
import { checkQuota, type QuotaCheck } from './quota-check.js';
import { admit, type RateDecision, type RateWindow } from './rate-window.js';
import { nextUtcDay, nextUtcMonth, utcDayStart, utcMonthStart, type OperationUsage, type QuotaUse, type RequestsUsed } from './usage.js';

export interface KeyMeter {
  window: RateWindow;
  /** Start of the counted UTC day and month (epoch ms) and the requests counted in each. */
  day: { start: number; used: number };
  month: { start: number; used: number };
}

export interface KeyUsage {
  /** Start of the UTC month the counters are of. */
  month: number;
  /** Outcomes per operation id. */
  operations: Record<string, OperationUsage>;
}

export interface Admission {
  rate: RateDecision;
  quota: QuotaCheck;
  /** The day's and month's requests after this one was counted (not counted when refused). */
  used: RequestsUsed;
}

export interface MeterReport {
  day: QuotaUse;
  month: QuotaUse;
  operations: Record<string, OperationUsage>;
}

/**
 * Admits a request into the key's rate window and quotas: counted when both allow it. A request
 * refused by the rate limit does not spend quota.
 */
export function admitRequest(meter: KeyMeter | undefined, nowMs: number, limits: KeyLimits, windowMs: number): { meter: KeyMeter; admission: Admission } {
  const current = rolled(meter, nowMs);
  const { window, decision } = admit(current.window, nowMs, limits.perMinute, windowMs);
  const before = { day: current.day.used, month: current.month.used };
  const quota = checkQuota(limits, before, new Date(nowMs));
  current.window = window;
  if (!decision.allowed || quota.exhausted) return { meter: current, admission: { rate: decision, quota, used: before } };
  current.day.used += 1;
  current.month.used += 1;
  return { meter: current, admission: { rate: decision, quota, used: { day: current.day.used, month: current.month.used } } };
}

export const noUsage = (): OperationUsage => ({ requests: 0, errors: 0, billable_units: 0, total_duration_ms: 0 });

/** Counts the outcome of one request into `counters` (a buffer's, or a stored record's). */
export function countOutcome(counters: OperationUsage, outcome: { error: boolean; billable: boolean; durationMs: number }): void {
  counters.requests += 1;
  if (outcome.error) counters.errors += 1;
  if (outcome.billable) counters.billable_units += 1;
  counters.total_duration_ms += Math.round(outcome.durationMs);
}

/** Adds counted outcomes (per operation id) to the usage of the month of `nowMs`. */
export function addUsage(usage: KeyUsage | undefined, nowMs: number, counted: ReadonlyMap<string, OperationUsage>): KeyUsage {
  const month = utcMonthStart(new Date(nowMs));
  const current = usage !== undefined && usage.month === month ? usage : { month, operations: {} };
  for (const [operationId, add] of counted) {
    const counters = (current.operations[operationId] ??= noUsage());
    counters.requests += add.requests;
    counters.errors += add.errors;
    counters.billable_units += add.billable_units;
    counters.total_duration_ms += add.total_duration_ms;
  }
  return current;
}

export function meterReport(meter: KeyMeter | undefined, usage: KeyUsage | undefined, nowMs: number): MeterReport {
  const current = rolled(meter, nowMs);
  const now = new Date(nowMs);
  const inMonth = usage !== undefined && usage.month === current.month.start ? usage.operations : {};
  const operations = Object.fromEntries(Object.entries(inMonth).sort(([a], [b]) => a.localeCompare(b)));
  return { day: { used: current.day.used, resetsAt: new Date(nextUtcDay(now)) }, month: { used: current.month.used, resetsAt: new Date(nextUtcMonth(now)) }, operations };
}

/** When a meter or usage record untouched since `nowMs` holds nothing worth keeping: its month is over. */
export function meterExpiresAt(nowMs: number): number {
  return nextUtcMonth(new Date(nowMs));
}

// Windows roll over on the (virtual) clock: a new UTC day or month starts from zero.
function rolled(meter: KeyMeter | undefined, nowMs: number): KeyMeter {
  const now = new Date(nowMs);
  const dayStart = utcDayStart(now);
  const monthStart = utcMonthStart(now);
  if (meter === undefined) return { window: { startMs: 0, count: 0 }, day: { start: dayStart, used: 0 }, month: { start: monthStart, used: 0 } };
  if (meter.day.start !== dayStart) meter.day = { start: dayStart, used: 0 };
  if (meter.month.start !== monthStart) meter.month = { start: monthStart, used: 0 };
  return meter;
}
