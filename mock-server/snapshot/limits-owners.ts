// Whose the limits part's records are: each is kept under its caller's id, and a key minted or a
// site created later takes the next id, so a record whose caller the document lacks would become
// that newcomer's (its idempotent answers replayed to it, its quota spent). Checked once the
// document's keys and sites are restored, before anything is replaced.
import type { SandboxStateLimits } from '../../generated/sandbox-control/types.js';
import { keyCallerId, siteCallerId } from '../domain/accounts/caller-ids.js';
import { StateRejected } from '../domain/state-rejected.js';
import type { SandboxGeneration } from '../sandbox.js';

export function checkLimitsOwners(state: SandboxStateLimits, accounts: Pick<SandboxGeneration, 'keys' | 'sites'>): void {
  const keyIds = new Set(accounts.keys.all().map((key) => String(key.id)));
  const requireKey = (keyId: string, pointer: string): void => {
    if (!keyIds.has(keyId)) throw new StateRejected(pointer, `no key has the id ${JSON.stringify(keyId)}`);
  };
  // A meter and a usage cell are a key's, under its id (http/rate-limit.ts, usage-buffer.ts).
  state.meters.forEach(({ key }, index) => requireKey(key, `/limits/meters/${index}/key`));
  state.usage.forEach(({ key }, index) => requireKey(key, `/limits/usage/${index}/key`));
  // A used nonce is `<key id>:<nonce>` (http/authenticate-v3.ts).
  state.nonces.forEach(({ key }, index) => requireKey(key.slice(0, Math.max(0, key.indexOf(':'))), `/limits/nonces/${index}/key`));
  // Idempotency records are scoped by caller id (http/pipeline.ts).
  const callers = new Set([...accounts.keys.all().map(keyCallerId), ...accounts.sites.all().map(siteCallerId)]);
  state.idempotency.forEach(({ caller }, index) => {
    if (!callers.has(caller)) throw new StateRejected(`/limits/idempotency/${index}/caller`, `no key or site is the caller ${JSON.stringify(caller)}`);
  });
}
