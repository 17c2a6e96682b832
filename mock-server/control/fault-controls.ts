// The control API's Faults room (contracts/sandbox-control.openapi.yaml, tag Faults): inject a
// fault into a v3 or v1 operation, list the faults in force, remove one or all. The table is
// passed in (the app builds it and hands it to the request pipeline too); fault-step.ts applies it.
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import type { Fault } from '../../generated/sandbox-control/types.js';
import type { Clock } from '../clock.js';
import { HttpError } from '../http/http-error.js';
import { controlSuccess } from '../http/respond.js';
import { faultSpecOf } from './fault-request.js';
import type { OperationFault, OperationFaults } from './operation-faults.js';

type FaultOperation = 'injectFault' | 'listFaults' | 'removeFault' | 'clearFaults';

export function faultControlHandlers(faults: OperationFaults, clock: Clock): Pick<SandboxControlHandlers, FaultOperation> {
  return {
    injectFault: (request, context) => controlSuccess('injectFault', context, clock, 201, { fault: presentFault(faults.add(faultSpecOf(request.body))) }),
    listFaults: (_request, context) => controlSuccess('listFaults', context, clock, 200, { faults: faults.list().map(presentFault) }),
    removeFault: (request, context) => {
      if (!faults.remove(request.path.fault)) throw new HttpError('not_found', 'No fault in force has this id.');
      return controlSuccess('removeFault', context, clock, 200, { cleared: 1 });
    },
    clearFaults: (_request, context) => controlSuccess('clearFaults', context, clock, 200, { cleared: faults.clear() }),
  };
}

/** A fault as the control API shows it (listFaults, injectFault, the inspector). */
export function presentFault(fault: OperationFault): Fault {
  const { error } = fault;
  return {
    id: fault.id,
    operation: fault.operation,
    family: fault.family,
    key_id: fault.keyId,
    site_id: fault.siteId,
    latency_ms: fault.latency === null ? null : { ...fault.latency },
    error:
      error === null
        ? null
        : {
            status: error.status,
            code: error.code,
            message: error.message,
            ...(error.details !== undefined ? { details: error.details } : {}),
            ...(error.retryAfterSeconds !== undefined ? { retry_after_seconds: error.retryAfterSeconds } : {}),
          },
    reset: fault.reset,
    times_left: fault.timesLeft,
    probability: fault.probability,
    seed: fault.seed,
    applied: fault.applied,
    created_at: fault.createdAt.toISOString(),
  };
}
