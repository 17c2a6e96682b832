// The instants the mock can hold: the control contract's EpochMs, whole milliseconds from 1970 to
// the end of year 9999 (past it an instant has no four-digit ISO 8601 form, so a sandbox holding
// one could not be exported and read back). The virtual clock stays short of its end
// (clock-range.ts).
import { bundledDocument } from './bundled-contracts.js';

export interface EpochRange {
  readonly minMs: number;
  readonly maxMs: number;
}

export const epochRange: EpochRange = readEpochRange();

function readEpochRange(): EpochRange {
  const schemas = (bundledDocument('sandbox-control').components as { schemas?: Record<string, { minimum?: unknown; maximum?: unknown }> } | undefined)?.schemas;
  const { minimum, maximum } = schemas?.EpochMs ?? {};
  if (typeof minimum !== 'number' || typeof maximum !== 'number') throw new Error('control contract: EpochMs has no minimum or maximum');
  return { minMs: minimum, maxMs: maximum };
}
