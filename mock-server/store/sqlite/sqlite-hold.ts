// One process holds a sandbox file (RecordJournal.hold()). Its connection switches to
// `PRAGMA locking_mode = EXCLUSIVE` and takes the file's lock with an empty write transaction: an
// exclusive connection never gives its lock back until it closes, and the operating system drops
// it when the process dies (kill -9 included), as it does every SQLite lock, so no stale lock
// file can outlive a mock. The file is in WAL mode, entered under NORMAL locking (open-sqlite.ts):
// SQLite then lets the connection switch to EXCLUSIVE and back, and once switched its lock keeps
// every other connection from reading the file as well: their first read answers SQLITE_BUSY.
// That is what a second mock meets while it opens the file, before it has written anything.
// Stores that share a file without holding it (test/store/) keep NORMAL locking.
import type { Database } from 'better-sqlite3';
import { JournalHeldElsewhere } from '../record-journal.js';

export function heldElsewhere(file: string): JournalHeldElsewhere {
  return new JournalHeldElsewhere(file, 'one process per file; stop it, or use another file');
}

/**
 * Whether `error` is SQLite's answer to a lock another connection keeps (SQLITE_BUSY, or one of
 * its extended codes such as SQLITE_BUSY_RECOVERY while another process recovers the file).
 */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** Makes `db` the file's one connection until it closes, or throws JournalHeldElsewhere. */
export function holdFile(db: Database, file: string): void {
  db.pragma('locking_mode = EXCLUSIVE');
  try {
    db.exec('BEGIN IMMEDIATE; COMMIT');
  } catch (error) {
    db.pragma('locking_mode = NORMAL');
    throw isBusy(error) ? heldElsewhere(file) : error;
  }
}
