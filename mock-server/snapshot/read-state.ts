// A sandbox state document from outside the control API (`serve --load FILE`, startMockServer's
// `state`): checked against the control contract's SandboxState, as PUT /__mock/state's router
// checks its body, before anything is loaded.
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import { operationValidators } from '../../generated/sandbox-control/validators.js';
import { StateRejected } from '../domain/state-rejected.js';

export function readSandboxState(document: unknown): SandboxState {
  const validate = operationValidators.importSandboxState.body;
  if (validate(document)) return document as SandboxState;
  const first = validate.errors?.[0];
  const where = first?.params && 'additionalProperty' in first.params ? `${first.instancePath}/${String(first.params.additionalProperty)}` : (first?.instancePath ?? '');
  throw new StateRejected(where === '' ? '/' : where, first?.message ?? 'is not a sandbox state document');
}
