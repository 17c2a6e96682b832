// Sandbox snapshots over real HTTP for the part suites: export a mock's document (checked against
// the contract), load one into another mock, and expect a document refused with 422 naming a field
// while the mock it was sent to stays exactly as it was.
import { expect } from 'vitest';
import type { SandboxState } from '../../../generated/sandbox-control/types.js';
import { expectContractBody } from '../../mock-server/support/contract.js';
import { send, type RawResponse } from '../../mock-server/support/http.js';
import type { TestServer } from '../../mock-server/support/server.js';

export async function exportState(server: TestServer): Promise<SandboxState> {
  const response = await server.control.exportSandboxState();
  expectContractBody('control', 'exportSandboxState', response.status, response.body);
  return response.body.result;
}

export function putState(server: TestServer, state: unknown): Promise<RawResponse> {
  return send(server.url, '/__mock/state', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(state) });
}

/** Loads `state` into `server`, which must take it. */
export async function loadState(server: TestServer, state: SandboxState): Promise<void> {
  const loaded = await putState(server, state);
  expect(loaded.status, loaded.text).toBe(200);
}

/** PUTs `document` into `server`: 422 with `field` among the details, and the next export as before. */
export async function expectRefusedUntouched(server: TestServer, document: unknown, field: string): Promise<void> {
  const { taken_at: _before, ...before } = await exportState(server);
  const refused = await putState(server, document);
  expect(refused.status, refused.text).toBe(422);
  expectContractBody('control', 'importSandboxState', 422, refused.json);
  expect(Object.keys((refused.json as { error: { details: object } }).error.details)).toContain(field);
  const { taken_at: _after, ...after } = await exportState(server);
  expect(after).toEqual(before);
}
