// The exchange part of a sandbox snapshot: export and restore of its services' records.
import type { SandboxStateExchange } from '../../generated/sandbox-control/types.js';
import type { StateReferences } from '../domain/state-rejected.js';
import type { SandboxServices } from '../services.js';

export function exportExchangeState(_services: SandboxServices): SandboxStateExchange {
  return {};
}

/** Replaces the records of freshly built services with the snapshot's; throws StateRejected. */
export function restoreExchangeState(_services: SandboxServices, _state: SandboxStateExchange, _references: StateReferences): void {}
