// The files part of a sandbox snapshot: export and restore of its services' records.
import type { SandboxStateFiles } from '../../generated/sandbox-control/types.js';
import type { StateReferences } from '../domain/state-rejected.js';
import type { SandboxServices } from '../services.js';

export function exportFilesState(_services: SandboxServices): SandboxStateFiles {
  return {};
}

/** Replaces the records of freshly built services with the snapshot's; throws StateRejected. */
export function restoreFilesState(_services: SandboxServices, _state: SandboxStateFiles, _references: StateReferences): void {}
