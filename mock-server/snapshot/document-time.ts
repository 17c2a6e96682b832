// The time a sandbox state document sets, checked before anything is loaded: the instant it was
// taken, read as every date-time input is (date-time-ms.ts), and its clock, which must put now
// within the instants the clock may show (clock-range.ts). The contract bounds a frozen instant
// and an offset each alone; an offset within its bound still carries a running clock far outside
// them once real time is added (year 10056, or before year 0), and a sandbox there could not be
// exported and read back.
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import type { VirtualClock } from '../clock.js';
import { clockRangeText } from '../clock-range.js';
import { readDateTime } from '../date-time-ms.js';
import { StateRejected } from '../domain/state-rejected.js';

export function checkDocumentTime(state: SandboxState, clock: VirtualClock): void {
  const takenAt = readDateTime(state.taken_at);
  if ('refused' in takenAt) throw new StateRejected('/taken_at', takenAt.refused);
  const { offset_ms: offsetMs, frozen_at_ms: frozenAtMs } = state.clock;
  if (!clock.holds({ offsetMs, frozenAtMs })) {
    throw new StateRejected(frozenAtMs === null ? '/clock/offset_ms' : '/clock/frozen_at_ms', `puts the clock outside ${clockRangeText}`);
  }
}
