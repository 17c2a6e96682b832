// Where a store operation fails away from any caller (an answer already written, a timer beat, a
// clock setting, an event being stored): reported on stderr. Not a hold that ended
// (record-journal.ts), which every write meets from then on and which the process reports once as
// it stops; and a connection to the store's server that failed (the server stopped, restarting,
// cut off) in one line, its message, since a stack says nothing more there. A store whose file is
// damaged is said so in one line too, and told to those listening (serve stops then: every timer
// beat would fail alike).
import { SandboxHoldEnded } from './record-journal.js';

/** SQLSTATE classes of a connection lost (08) or ended by the server's operator or shutdown (57P), and socket failures. */
const connectionCodes = /^(08|57P)|^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT)$/;

/** SQLite's verdicts on a file whose pages are not what it wrote (a disk fault, a copy taken mid-write, an edit). */
const damageCodes = /^SQLITE_(CORRUPT|NOTADB)/;

const damageListeners = new Set<(error: Error) => void>();

/** Calls `listener` with the failure when a store operation finds the store's file damaged; returns the unsubscribe. */
export function onStoreDamaged(listener: (error: Error) => void): () => void {
  damageListeners.add(listener);
  return () => damageListeners.delete(listener);
}

export function reportStoreFailure(what: string, error: unknown): void {
  if (error instanceof SandboxHoldEnded) return;
  if (connectionFailed(error)) console.error(`${what}: ${(error as Error).message}`);
  else if (damaged(error)) {
    console.error(`${what}: the store's file is damaged: ${error.message}`);
    for (const listener of damageListeners) listener(error);
  } else console.error(what, error);
}

function damaged(error: unknown): error is Error {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && damageCodes.test(code);
}

function connectionFailed(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as { code?: unknown };
  // pg's own words for a connection that ended, or that failed before this query was sent on it.
  return (typeof code === 'string' && connectionCodes.test(code)) || /^(Connection terminated|Client has encountered a connection error)/.test(error.message);
}
