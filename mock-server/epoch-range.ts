// The instants the mock can hold: the control contract's EpochMs, whole milliseconds from 1970 to
// the end of year 9999 (past it an instant has no four-digit ISO 8601 form, so a sandbox holding
// one could not be exported and read back). The virtual clock stays short of its end
// (clock-range.ts), and every date-time a request gives is read into it (date-time-ms.ts).
import { schemaBound } from './bundled-contracts.js';

export interface EpochRange {
  readonly minMs: number;
  readonly maxMs: number;
}

export const epochRange: EpochRange = readEpochRange();

export function withinEpoch(ms: number): boolean {
  return ms >= epochRange.minMs && ms <= epochRange.maxMs;
}

/** The range as text, for refusals: `1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z`. */
export const epochRangeText = `${new Date(epochRange.minMs).toISOString()} to ${new Date(epochRange.maxMs).toISOString()}`;

function readEpochRange(): EpochRange {
  return { minMs: schemaBound('sandbox-control', 'EpochMs', 'minimum'), maxMs: schemaBound('sandbox-control', 'EpochMs', 'maximum') };
}
