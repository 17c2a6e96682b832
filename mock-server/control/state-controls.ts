// exportSandboxState and importSandboxState: the whole sandbox as one document, and replacing the
// sandbox with one (mock-server/snapshot). A load clears the injected faults, as a reset does; a
// document whose records do not fit together is refused with 422, the sandbox untouched.
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import { StateRejected } from '../domain/state-rejected.js';
import { HttpError } from '../http/http-error.js';
import { controlSuccess } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { exportSandboxState, loadSandboxState } from '../snapshot/sandbox-state.js';
import type { OperationFaults } from './operation-faults.js';

export function stateControlHandlers(sandbox: Sandbox, faults: OperationFaults): Pick<SandboxControlHandlers, 'exportSandboxState' | 'importSandboxState'> {
  return {
    exportSandboxState: async (_request, context) => controlSuccess('exportSandboxState', context, sandbox.clock, 200, await exportSandboxState(sandbox)),
    importSandboxState: async (request, context) => {
      try {
        const { records } = await loadSandboxState(sandbox, request.body);
        faults.reset();
        return controlSuccess('importSandboxState', context, sandbox.clock, 200, { seed: sandbox.seedInUse, now: sandbox.clock.now().toISOString(), records });
      } catch (error) {
        if (!(error instanceof StateRejected)) throw error;
        throw new HttpError('validation_error', `The sandbox state was not loaded: ${error.message}`, { [bodyField(error.pointer)]: [error.reason] });
      }
    },
  };
}

/** `/deposits/deposits/3/siteId` → `body.deposits.deposits.3.siteId`, as the router names body fields. */
function bodyField(pointer: string): string {
  return `body${pointer.replaceAll('/', '.')}`;
}
