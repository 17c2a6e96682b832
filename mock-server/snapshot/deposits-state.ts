// The deposits part of a sandbox snapshot: export and restore of its services' records.
import type { SandboxStateDeposits } from '../../generated/sandbox-control/types.js';
import type { StateReferences } from '../domain/state-rejected.js';
import type { SandboxServices } from '../services.js';

export function exportDepositsState(_services: SandboxServices): SandboxStateDeposits {
  return {};
}

/** Replaces the records of freshly built services with the snapshot's; throws StateRejected. */
export function restoreDepositsState(_services: SandboxServices, _state: SandboxStateDeposits, _references: StateReferences): void {}
