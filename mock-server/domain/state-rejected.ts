// What a service restoring its records from a snapshot (mock-server/snapshot) throws when they do
// not fit together, and what it looks other services' records up by. The control API maps the
// error to 422 validation_error, the command line to exit 2; either way nothing was replaced.
import type { Client } from './accounts/api-keys.js';
import type { Site } from './accounts/sites.js';

export class StateRejected extends Error {
  /**
   * @param pointer JSON pointer into the snapshot document (`/deposits/deposits/3/site`)
   * @param reason what is wrong there
   */
  constructor(
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(`${pointer}: ${reason}`);
    this.name = 'StateRejected';
  }
}

/** Records of other services a restoring service refers to, by the ids the snapshot holds. */
export interface StateReferences {
  /** The client of a v3 key; throws StateRejected naming `pointer` when no key has it. */
  client(id: number, pointer: string): Client;
  /** A v1 site; throws StateRejected naming `pointer` when there is none. */
  site(id: number, pointer: string): Site;
}

/** Throws StateRejected unless `value` is one of `allowed` (a machine's states, a known name). */
export function requireOneOf<T extends string>(value: string, allowed: readonly T[], pointer: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new StateRejected(pointer, `${JSON.stringify(value)} is not one of ${allowed.join(', ')}`);
  return value as T;
}
