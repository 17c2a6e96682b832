// The journal of the domains' records, kept by the engines that outlive the process (sqlite:,
// postgres://): each record as one row (its kind, its id, its document as JSON text) and the parts
// of the sandbox that are not lists of records as named header rows. The port knows no domain
// type: what a kind or a header means belongs to the sandbox that writes them (mock-server/snapshot).
//
// It is asynchronous (PostgreSQL's client is): the sandbox runs one write at a time, in the order
// it asked for them (mock-server/snapshot/journal-queue.ts), and an answer that depends on a write
// leaves only once the write has resolved (mock-server/http/journal-before-answer.ts).

import { StoreOpenError } from './store-open-error.js';

/** A record's row: `doc` is its JSON text. */
export interface JournalRow {
  kind: string;
  id: string;
  doc: string;
}

/** One unit of work, written as one transaction. */
export interface JournalWrite {
  /** Empties the journal first (a reset or a load rewrites it whole). */
  whole: boolean;
  /** Header rows to write, by name (JSON text). */
  headers: ReadonlyMap<string, string>;
  /** Records created or changed: a new row goes last, a changed one keeps its place. */
  upserts: readonly JournalRow[];
  /** Records gone. */
  deletes: readonly Pick<JournalRow, 'kind' | 'id'>[];
  /** The store's cells changed in this process's memory while it holds the journal (held-cells.ts); absent: none. */
  cells?: CellWrites;
}

/** A cell's row as a write leaves it: `value` its JSON text, undefined when the cell is gone. */
export interface CellWrite {
  kind: string;
  key: string;
  value: string | undefined;
  expiresAtMs: number;
}

export interface CellWrites {
  /** Every cell row goes first (the sandbox was reset or loaded since the last write). */
  cleared: boolean;
  rows: readonly CellWrite[];
}

/**
 * The cells changed since the last write, which the next write carries; kept in the process
 * holding the journal (store/held-cells.ts), empty until it holds it.
 */
export interface CellChangeLog {
  /** Takes the changes: each changed cell as it is now. */
  take(): CellWrites;
  /** Gives back what a write that failed took, for the next write to carry (as it is then). */
  giveBack(taken: CellWrites): void;
}

export interface JournalContents {
  headers: ReadonlyMap<string, string>;
  /**
   * Every record, oldest row first; read once (an engine may stream them from the database,
   * which is then busy until the last row is read or the iteration is ended).
   */
  rows: Iterable<JournalRow>;
}

/**
 * The journal is held by another process (hold()); `location` names the store, without a password,
 * and `advice` says what the user can do, in the engine's words (a database, a file).
 */
export class JournalHeldElsewhere extends StoreOpenError {
  constructor(
    readonly location: string,
    advice = 'one process per database until replicas share one; stop it, or use another database',
  ) {
    super(`another mock holds the sandbox of ${location}: ${advice}`);
  }
}

/** Where replicas reach the process holding the journal (mock-server/replica/). */
export interface HolderAddress {
  /** Its peer listener's base URL. */
  url: string;
  /** What a replica's forwarded request carries to be taken as a replica's. */
  secret: string;
}

/**
 * The journal's holder as replicas see it, on an engine several processes share (postgres://).
 * One process holds the journal and answers every request; the others forward to it and wait
 * to hold it, taking over the sandbox when the holder stops or dies.
 */
export interface JournalHolding {
  /**
   * Resolves once this process holds the journal (when the holder stops, or at once when none
   * does); rejects with SandboxDatabaseLost when the database cannot be reached to wait on.
   */
  waitToHold(): Promise<void>;
  /** Publishes where the holder (this process) is reached; only its holder may. */
  announce(address: HolderAddress): Promise<void>;
  /** Where the holder is reached; undefined while none has announced itself. */
  holder(): Promise<HolderAddress | undefined>;
  /**
   * Called once if this process's hold ends while it runs: its lock's session ended (the error
   * says why), a write was refused (JournalHoldLost), or the database went away (SandboxDatabaseLost).
   */
  onLost(listener: (error: Error) => void): void;
  /** Where the replicas listen: whichever process holds the sandbox never sends a webhook there. */
  readonly replicaListeners: ReplicaListeners;
}

/** Where a listener answers: its port, on these addresses (normalised; a wildcard listener's are its machine's). */
export interface ListenerAddress {
  port: number;
  addresses: string[];
}

/**
 * The listening addresses of the replicas of a shared sandbox. A webhook aimed at a replica's
 * port would be forwarded to the holder: the holder counts them as its own (dispatch/own-listener.ts).
 */
export interface ReplicaListeners {
  /** Records where this process listens, counted until `removed()` or the process's end (a dead one's too). */
  record(address: ListenerAddress): Promise<RecordedListener>;
  /** Where every live replica listens, as recorded now. */
  live(): Promise<ListenerAddress[]>;
}

export interface RecordedListener {
  /**
   * Which writing of the record counts now (1, then 2 once the first was lost and written again,
   * …); undefined while it is lost (the connection behind it broke) and not written again yet.
   */
  readonly since: number | undefined;
  removed(): Promise<void>;
}

/**
 * This process's hold on a shared sandbox ended while it ran: it writes nothing more and stops
 * (the one line saying why is the holder's, cli/serve.ts). A failure for this reason is expected
 * then, not a fault to report on its own.
 */
export class SandboxHoldEnded extends Error {}

/** A write refused because another process took the journal over (this one lost its hold). */
export class JournalHoldLost extends SandboxHoldEnded {
  constructor(readonly location: string) {
    super(`the sandbox of ${location} is held by another mock now: this one lost its hold`);
  }
}

/** The database holding the sandbox went away (stopped, restarted, unreachable): the hold went with its session. */
export class SandboxDatabaseLost extends SandboxHoldEnded {
  constructor(
    readonly location: string,
    readonly reason: string,
  ) {
    super(`lost the sandbox database ${location}: ${reason}`);
  }
}

export interface RecordJournal {
  /**
   * Makes this process the journal's one writer until the store is closed, or throws
   * JournalHeldElsewhere. The journal is one whole sandbox, written by the process holding it:
   * two writing theirs would each overwrite the other's. A write made after another process took
   * the journal over is refused (JournalHoldLost).
   */
  hold(): Promise<void>;
  /** On an engine several processes share: waiting for the hold, and finding the holder. */
  readonly holding?: JournalHolding;
  /** Resolves once the unit of work is committed; rejects (nothing written) when it cannot be. */
  write(change: JournalWrite): Promise<void>;
  /**
   * Undefined when no sandbox was ever written (a new file). `without`: the rows of these kinds
   * are left out (the store keeps them and reads them when asked for: SandboxStore.deposits).
   */
  read(without?: readonly string[]): Promise<JournalContents | undefined>;
  /** The header `name` alone (the seed is read before the sandbox is built). */
  header(name: string): Promise<string | undefined>;
  /** The cells the store holds in memory while this process holds the journal: what each write carries. */
  readonly cellChanges: CellChangeLog;
}
