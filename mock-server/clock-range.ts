// The instants the virtual clock may show: those an EpochMs holds (epoch-range.ts), but for the
// last stretch as long as the longest advance of one call. The control contract bounds one
// advance to a year as covering every lifetime and retry schedule of the service (its
// x-assumption on AdvanceClockBySeconds.seconds), so whatever a record counts from now (a quota
// window's end, an idempotency record's expiry, a webhook retry, a deposit's lifetime) is still
// an EpochMs, and the sandbox's export still loads. A clock allowed up to the very last EpochMs
// showed a valid time, but one v3 request there stored a rate window ending in year 10000.
import { schemaBound } from './bundled-contracts.js';
import { epochRange, type EpochRange } from './epoch-range.js';

/** The longest advance of one call: AdvanceClockBySeconds.seconds's maximum, in milliseconds. */
export const maxAdvanceMs = readMaxAdvanceSeconds() * 1000;

export const clockRange: EpochRange = { minMs: epochRange.minMs, maxMs: epochRange.maxMs - maxAdvanceMs };

export function withinClockRange(ms: number): boolean {
  return ms >= clockRange.minMs && ms <= clockRange.maxMs;
}

/** The range as text, for refusals: `1970-01-01T00:00:00.000Z to 9998-12-31T23:59:59.999Z`. */
export const clockRangeText = `${new Date(clockRange.minMs).toISOString()} to ${new Date(clockRange.maxMs).toISOString()}`;

function readMaxAdvanceSeconds(): number {
  return schemaBound('sandbox-control', 'AdvanceClockBySeconds.seconds', 'maximum');
}
