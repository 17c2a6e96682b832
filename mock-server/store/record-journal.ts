// The journal of the domains' records, kept by the engines that outlive the process (sqlite:):
// each record as one row (its kind, its id, its document as JSON text) and the parts of the
// sandbox that are not lists of records as named header rows. The port knows no domain type:
// what a kind or a header means belongs to the sandbox that writes them (mock-server/durable).
//
// It is synchronous: the one engine that keeps it (better-sqlite3) is, so a unit of work is
// written while nothing else of the process runs, before the answer that depends on it leaves.

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
}

export interface JournalContents {
  headers: ReadonlyMap<string, string>;
  /**
   * Every record, oldest row first; read once (an engine may stream them from the database,
   * which is then busy until the last row is read or the iteration is ended).
   */
  rows: Iterable<JournalRow>;
}

export interface RecordJournal {
  write(change: JournalWrite): void;
  /** Undefined when no sandbox was ever written (a new file). */
  read(): JournalContents | undefined;
  /** The header `name` alone (the seed is read before the sandbox is built). */
  header(name: string): string | undefined;
}
