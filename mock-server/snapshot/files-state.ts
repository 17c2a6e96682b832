// The files part of a sandbox snapshot: export and restore of its services' records. Upload
// intents keep their files' metadata only (the mock never keeps a file's bytes), so the document
// carries no file content.
import type { SandboxStateFiles } from '../../generated/sandbox-control/types.js';
import { StateRejected, type StateReferences } from '../domain/state-rejected.js';
import type { SandboxServices } from '../services.js';

/** `withRecords` false: every list of records left empty (a journal's header, journal-rows.ts). */
export function exportFilesState(services: SandboxServices, withRecords = true): SandboxStateFiles {
  const uploads = services.uploads.exportState(withRecords);
  const verifications = services.verifications.exportState(withRecords);
  return {
    uploads: uploads.intents,
    verifications: verifications.verifications,
    random: { uploads: uploads.random, verifications: verifications.random },
  };
}

/** Replaces the records of freshly built services with the snapshot's; throws StateRejected. */
export function restoreFilesState(services: SandboxServices, state: SandboxStateFiles, references: StateReferences): void {
  // Records name their client by its id as a string (String(client.id)).
  const requireClient = (clientId: string, pointer: string): void => {
    const client = references.client(Number(clientId), pointer);
    if (String(client.id) !== clientId) throw new StateRejected(pointer, `write the client id as ${client.id}`);
  };
  // Upload intents first: a verification's documents name them.
  services.uploads.restoreState({ intents: state.uploads, randomAt: state.random.uploads }, requireClient, '/files/uploads');
  services.verifications.restoreState({ verifications: state.verifications, randomAt: state.random.verifications }, requireClient, '/files/verifications');
}
