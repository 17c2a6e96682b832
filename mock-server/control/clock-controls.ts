// The control API's Clock room (contracts/sandbox-control.openapi.yaml): read, freeze, resume and
// advance the virtual clock. An advance is at most the contract's one year, in whole milliseconds
// (an EpochMs has no fractions), and never past the last instant the clock may show
// (clock-range.ts): beyond it, 422 validation_error naming the field, and the clock as it was.
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import type { AdvanceClockRequest } from '../../generated/sandbox-control/types.js';
import { clockRangeText, maxAdvanceMs } from '../clock-range.js';
import { HttpError } from '../http/http-error.js';
import { controlSuccess } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { presentClock } from './inspector-controls.js';
import { durationMs } from './iso-duration.js';

type ClockOperation = 'getClock' | 'freezeClock' | 'resumeClock' | 'advanceClock';

export function clockControlHandlers(sandbox: Sandbox): Pick<SandboxControlHandlers, ClockOperation> {
  const { clock } = sandbox;
  return {
    getClock: (_request, context) => controlSuccess('getClock', context, clock, 200, presentClock(clock)),
    freezeClock: (_request, context) => {
      clock.freeze();
      return controlSuccess('freezeClock', context, clock, 200, presentClock(clock));
    },
    resumeClock: (_request, context) => {
      clock.resume();
      return controlSuccess('resumeClock', context, clock, 200, presentClock(clock));
    },
    advanceClock: async (request, context) => {
      const { field, ms } = advanceOf(request.body);
      if (!(ms > 0) || ms > maxAdvanceMs) {
        throw new HttpError('validation_error', `The advance must be at least a millisecond and at most ${maxAdvanceMs / 1000} seconds.`, {
          [field]: [`must be at least 0.001 and at most ${maxAdvanceMs / 1000} seconds`],
        });
      }
      // Checked and made with no await between them, so no other request moves the clock meanwhile.
      const headroomMs = clock.headroomMs();
      if (ms > headroomMs) {
        throw new HttpError('validation_error', 'The advance would carry the clock past the last instant it may show.', {
          [field]: [`must keep the clock within ${clockRangeText}: at most ${headroomMs / 1000} seconds remain`],
        });
      }
      await clock.advance(ms);
      return controlSuccess('advanceClock', context, clock, 200, presentClock(clock));
    },
  };
}

/** The advance asked for, rounded to whole milliseconds, and the field that asked for it. */
function advanceOf(body: AdvanceClockRequest): { field: string; ms: number } {
  return 'seconds' in body ? { field: 'body.seconds', ms: Math.round(body.seconds * 1000) } : { field: 'body.duration', ms: Math.round(durationMs(body.duration)) };
}

