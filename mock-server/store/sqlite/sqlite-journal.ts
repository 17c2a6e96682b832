// The sqlite: engine's record journal (record-journal.ts): two tables, each unit of work one
// `BEGIN IMMEDIATE` transaction. better-sqlite3 is synchronous: a write is committed when write()
// returns its (resolved) promise. A write carries the cells changed in memory since the last one
// (held-cells.ts), which the hold takes up from the file.
import type { Database, Statement } from 'better-sqlite3';
import type { HeldCells, CellRow } from '../held-cells.js';
import type { JournalContents, JournalRow, JournalWrite, RecordJournal } from '../record-journal.js';
import { holdFile } from './sqlite-hold.js';

export class SqliteJournal implements RecordJournal {
  private readonly upsert: Statement<[string, string, string]>;
  private readonly remove: Statement<[string, string]>;
  private readonly writeHeader: Statement<[string, string]>;
  private readonly readHeader: Statement<[string], { doc: string }>;
  private readonly writeTx: (change: JournalWrite) => void;
  private held = false;
  /** Called once a whole write (a rewrite: start, reset, load) is committed. */
  onWhole: (() => void) | null = null;

  constructor(
    private readonly db: Database,
    private readonly file: string,
    readonly cellChanges: HeldCells,
  ) {
    // ON CONFLICT … DO UPDATE keeps the row (and its rowid, the creation order); REPLACE would not.
    this.upsert = db.prepare('INSERT INTO journal_records (kind, id, doc) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET doc = excluded.doc');
    this.remove = db.prepare('DELETE FROM journal_records WHERE kind = ? AND id = ?');
    this.writeHeader = db.prepare('INSERT INTO journal_headers (name, doc) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET doc = excluded.doc');
    this.readHeader = db.prepare('SELECT doc FROM journal_headers WHERE name = ?');
    const writeCell = db.prepare<[string, string, string, number]>(
      'INSERT INTO cells (kind, key, value, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
    );
    const removeCell = db.prepare<[string, string]>('DELETE FROM cells WHERE kind = ? AND key = ?');
    const tx = db.transaction((change: JournalWrite) => {
      if (change.cells?.cleared === true) db.exec('DELETE FROM cells');
      for (const { kind, key, value, expiresAtMs } of change.cells?.rows ?? []) {
        if (value === undefined) removeCell.run(kind, key);
        else writeCell.run(kind, key, value, expiresAtMs);
      }
      if (change.whole) db.exec('DELETE FROM journal_records; DELETE FROM journal_headers;');
      for (const { kind, id } of change.deletes) this.remove.run(kind, id);
      for (const { kind, id, doc } of change.upserts) this.upsert.run(kind, id, doc);
      for (const [name, doc] of change.headers) this.writeHeader.run(name, doc);
    });
    this.writeTx = (change) => tx.immediate(change);
  }

  /** The file's lock, kept until the store closes (sqlite-hold.ts). */
  async hold(): Promise<void> {
    if (this.held) return;
    holdFile(this.db, this.file);
    this.held = true;
    const rows = this.db.prepare<[], CellRow>('SELECT kind, key, value, expires_at AS expiresAtMs FROM cells').iterate();
    this.cellChanges.hold(rows);
  }

  async write(change: JournalWrite): Promise<void> {
    this.writeTx(change);
    if (change.whole) this.onWhole?.();
  }

  async read(without: readonly string[] = []): Promise<JournalContents | undefined> {
    const headers = new Map((this.db.prepare('SELECT name, doc FROM journal_headers').all() as { name: string; doc: string }[]).map(({ name, doc }) => [name, doc]));
    if (headers.size === 0) return undefined;
    // Streamed: a row is garbage once its record is decoded. Reading a million rows at once kept
    // them all alive together, and the collector's work on them cost more than the reading.
    // The kinds kept are found by stepping through the (kind, id) index, and their rows by it: the
    // rows of the kinds left out are never read.
    const rows = this.db
      .prepare(
        without.length === 0
          ? 'SELECT kind, id, doc FROM journal_records ORDER BY rowid'
          : `WITH RECURSIVE kinds (kind) AS (
               SELECT min(kind) FROM journal_records
               UNION ALL SELECT (SELECT min(kind) FROM journal_records WHERE kind > kinds.kind) FROM kinds WHERE kind IS NOT NULL)
             SELECT kind, id, doc FROM journal_records
             WHERE kind IN (SELECT kind FROM kinds WHERE kind IS NOT NULL AND kind NOT IN (SELECT value FROM json_each(?)))
             ORDER BY rowid`,
      )
      .raw()
      .iterate(...(without.length === 0 ? [] : [JSON.stringify(without)])) as IterableIterator<[string, string, string]>;
    return { headers, rows: asRows(rows) };
  }

  async header(name: string): Promise<string | undefined> {
    return this.readHeader.get(name)?.doc;
  }
}

/**
 * The statement's rows as JournalRows. Ending this iteration early ends the statement's too (a
 * generator not yet started would not), so a start that stops at a damaged header leaves the
 * database free to close.
 */
function asRows(raw: IterableIterator<[string, string, string]>): IterableIterator<JournalRow> {
  const rows: IterableIterator<JournalRow> = {
    next: () => {
      const next = raw.next();
      return next.done === true ? { done: true, value: undefined } : { done: false, value: { kind: next.value[0], id: next.value[1], doc: next.value[2] } };
    },
    return: () => {
      raw.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.iterator]: () => rows,
  };
  return rows;
}
