// What the platform meters per v3 key, as one plain record the store changes atomically: the
// current rate window, the requests of the UTC day and month (what quotas count) and the outcome
// counters per operation (what GET /private/usage reports). The rules are pure: each takes the
// record as stored (undefined for none) and returns the record to keep, changed in place where it
// can be: a store hands each change a value it owns and replaces (the port's update contract).
import type { KeyLimits } from './api-keys.js';
import { checkQuota, type QuotaCheck } from './quota-check.js';
import { admit, type RateDecision, type RateWindow } from './rate-window.js';
import { nextUtcDay, nextUtcMonth, utcDayStart, utcMonthStart, type OperationUsage, type QuotaUse, type RequestsUsed } from './usage.js';

export interface KeyMeter {
  window: RateWindow;
  /** Start of the counted UTC day and month (epoch ms) and the requests counted in each. */
  day: { start: number; used: number };
  month: { start: number; used: number };
  /** Outcomes per operation id in the current month. */
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

/** Counts the outcome of one request of an operation. */
export function recordOutcome(meter: KeyMeter | undefined, nowMs: number, operationId: string, outcome: { error: boolean; billable: boolean; durationMs: number }): KeyMeter {
  const current = rolled(meter, nowMs);
  const counters = (current.operations[operationId] ??= { requests: 0, errors: 0, billable_units: 0, total_duration_ms: 0 });
  counters.requests += 1;
  if (outcome.error) counters.errors += 1;
  if (outcome.billable) counters.billable_units += 1;
  counters.total_duration_ms += Math.round(outcome.durationMs);
  return current;
}

export function meterReport(meter: KeyMeter | undefined, nowMs: number): MeterReport {
  const current = rolled(meter, nowMs);
  const now = new Date(nowMs);
  const operations = Object.fromEntries(Object.entries(current.operations).sort(([a], [b]) => a.localeCompare(b)));
  return { day: { used: current.day.used, resetsAt: new Date(nextUtcDay(now)) }, month: { used: current.month.used, resetsAt: new Date(nextUtcMonth(now)) }, operations };
}

/** When a meter untouched since `nowMs` holds nothing worth keeping: its month is over. */
export function meterExpiresAt(nowMs: number): number {
  return nextUtcMonth(new Date(nowMs));
}

// Windows roll over on the (virtual) clock: a new UTC day or month starts from zero.
function rolled(meter: KeyMeter | undefined, nowMs: number): KeyMeter {
  const now = new Date(nowMs);
  const dayStart = utcDayStart(now);
  const monthStart = utcMonthStart(now);
  if (meter === undefined) return { window: { startMs: 0, count: 0 }, day: { start: dayStart, used: 0 }, month: { start: monthStart, used: 0 }, operations: {} };
  if (meter.day.start !== dayStart) meter.day = { start: dayStart, used: 0 };
  if (meter.month.start !== monthStart) {
    meter.month = { start: monthStart, used: 0 };
    meter.operations = {};
  }
  return meter;
}
