// A sandbox on a durable store (sqlite:, postgres://): taken up from the store's journal at start,
// when it holds one, then kept in it (journal-writer.ts, its writes in order by journal-queue.ts).
// The store keeps the rest of the sandbox natively (limits, webhooks, the clock's setting).
import { StateRejected } from '../domain/state-rejected.js';
import type { Sandbox } from '../sandbox.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { decodeDomainState, storedSeed } from './journal-rows.js';
import { JournalAudit } from './journal-audit.js';
import { JournalQueue } from './journal-queue.js';
import { JournalWriter } from './journal-writer.js';
import { resumeDomainState, type SandboxDomainState } from './sandbox-state.js';

/** A seed given at start that is not the one the store's sandbox was built with. */
export class StoredSeedMismatch extends RangeError {
  constructor(
    readonly given: number,
    readonly stored: number,
    readonly location: string,
  ) {
    super(`the seed ${given} is not the seed ${stored} of the sandbox kept in ${location}`);
  }
}

/** A stored sandbox whose records do not fit together (a file written by hand or damaged). */
export class StoredSandboxUnfit extends RangeError {
  constructor(location: string, rejected: StateRejected) {
    super(`the sandbox kept in ${location} does not fit together: ${rejected.message}`);
  }
}

/**
 * The seed to build the sandbox with: the stored sandbox's, so its default key and site (drawn
 * from the seed) are the ones it had. Throws StoredSeedMismatch when `given` differs from it, and
 * JournalHeldElsewhere when another process holds the store's journal (checked first: that
 * process may be rewriting it).
 */
export async function seedToResume(store: SandboxStore | undefined, given: number | undefined): Promise<number | undefined> {
  await store?.journal?.hold();
  return checkedSeed(store, given);
}

/**
 * The seed of the store's sandbox, or `given` when it holds none; StoredSeedMismatch when they
 * differ. Read without holding the journal by a replica, which resumes it only once it holds it.
 */
export async function checkedSeed(store: SandboxStore | undefined, given: number | undefined): Promise<number | undefined> {
  let stored: number | undefined;
  try {
    stored = store?.journal === undefined ? undefined : await storedSeed(store.journal);
  } catch (error) {
    throw error instanceof StateRejected ? new StoredSandboxUnfit(store!.location, error) : error;
  }
  if (stored === undefined) return given;
  if (given !== undefined && given !== stored) throw new StoredSeedMismatch(given, stored, store!.location);
  return stored;
}

/**
 * Takes up the records the store's journal holds, if any, and from then on keeps them in it;
 * `audit` checks every write against a whole encoding (journal-audit.ts).
 */
export async function keepInJournal(sandbox: Sandbox, audit = false): Promise<void> {
  const { journal } = sandbox.store;
  if (journal === undefined || sandbox.marked === null) return;
  await journal.hold();
  // Nothing of this process runs yet: a reservation still pending is a dead process's request.
  await sandbox.store.idempotency.abandonPending();
  // An engine that keeps the deposits itself reads them when asked for: the start reads none.
  const depositsStored = sandbox.store.deposits !== undefined;
  const contents = await journal.read(depositsStored ? ['deposit'] : []);
  const auditor = audit ? new JournalAudit() : null;
  const writer = new JournalQueue(new JournalWriter(journal, sandbox, sandbox.marked, auditor));
  if (contents === undefined) {
    sandbox.journal = writer;
    await writer.rewrite();
    return;
  }
  let state: SandboxDomainState;
  try {
    state = decodeDomainState(contents);
    // Before the sandbox has its writer: a replace rewrites the journal whole, which here would
    // only write back every row just read (at 200,000 deposits a third of the start's time).
    await resumeDomainState(sandbox, state, depositsStored);
  } catch (error) {
    throw error instanceof StateRejected ? new StoredSandboxUnfit(sandbox.store.location, error) : error;
  }
  // Read again for the audit (tests): its copy of the journal starts from the rows as they are.
  auditor?.startFrom((await journal.read())!);
  sandbox.journal = writer;
  // Restoring marks the records it puts back (the same paths keep new ones); the journal holds
  // them as they are, so writing them again would only cost the start a rewrite of those rows.
  sandbox.marked.take(true);
  // The default key and site took the mock's credentials, which need not be the ones their rows
  // hold (a restart with another --token): marked so the flush writes them.
  sandbox.marked.changed('key', String(sandbox.defaultKey.id));
  sandbox.marked.changed('site', String(sandbox.defaultSite.id));
  await writer.flush();
}
