// The postgres:// engine's record journal (record-journal.ts): two tables (migration 3), each unit
// of work one transaction of at most four statements, whatever its size (the rows go as arrays).
// The journal is held by one process through a session advisory lock on a connection of its own,
// kept until the store closes (or the process dies, which ends the session and frees the lock).
import type { Pool, PoolClient } from 'pg';
import { JournalHeldElsewhere, type JournalContents, type JournalRow, type JournalWrite, type RecordJournal } from '../record-journal.js';
import { transactionOn } from './transaction.js';

/** The advisory lock key of the journal's holder (advisory locks are per database). */
const holderLock = 0x6b69_746a;

export class PostgresJournal implements RecordJournal {
  private holder: PoolClient | undefined;

  constructor(
    private readonly pool: Pool,
    /** The URL without its password, for messages. */
    private readonly location: string,
  ) {}

  async hold(): Promise<void> {
    if (this.holder !== undefined) return;
    const client = await this.pool.connect();
    const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [holderLock]).catch((error: unknown) => {
      client.release(true);
      throw error;
    });
    if (rows[0]?.held !== true) {
      client.release();
      throw new JournalHeldElsewhere(this.location);
    }
    // A checked-out connection that breaks would otherwise throw its error at the process.
    client.on('error', (error) => console.error(`the hold on the sandbox of ${this.location} is lost: another mock may take it`, error));
    this.holder = client;
  }

  /**
   * Frees the lock before the store's close resolves, so a mock started next on the database may
   * take it (ending the connection alone frees it only once the server has ended that session).
   */
  async release(): Promise<void> {
    const holder = this.holder;
    this.holder = undefined;
    if (holder === undefined) return;
    const unlocked = await holder.query('SELECT pg_advisory_unlock($1)', [holderLock]).then(
      () => true,
      () => false,
    );
    holder.release(!unlocked);
  }

  async write(change: JournalWrite): Promise<void> {
    const client = await this.pool.connect();
    try {
      await transactionOn(client, async () => {
        if (change.whole) await client.query('TRUNCATE journal_records, journal_headers');
        if (change.deletes.length > 0) {
          await client.query('DELETE FROM journal_records WHERE (kind, id) IN (SELECT * FROM unnest($1::text[], $2::text[]))', [
            change.deletes.map((row) => row.kind),
            change.deletes.map((row) => row.id),
          ]);
        }
        if (change.upserts.length > 0) {
          // In the order given (a new row's seq is its creation order); a changed row keeps its seq.
          await client.query(
            `INSERT INTO journal_records (kind, id, doc)
             SELECT kind, id, doc FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS given (kind, id, doc, n) ORDER BY n
             ON CONFLICT (kind, id) DO UPDATE SET doc = excluded.doc`,
            [change.upserts.map((row) => row.kind), change.upserts.map((row) => row.id), change.upserts.map((row) => row.doc)],
          );
        }
        if (change.headers.size > 0) {
          await client.query('INSERT INTO journal_headers (name, doc) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (name) DO UPDATE SET doc = excluded.doc', [
            [...change.headers.keys()],
            [...change.headers.values()],
          ]);
        }
      });
    } finally {
      client.release();
    }
  }

  async read(): Promise<JournalContents | undefined> {
    const headers = new Map((await this.pool.query<{ name: string; doc: string }>('SELECT name, doc FROM journal_headers')).rows.map(({ name, doc }) => [name, doc]));
    if (headers.size === 0) return undefined;
    const rows = (await this.pool.query<JournalRow>('SELECT kind, id, doc FROM journal_records ORDER BY seq')).rows;
    return { headers, rows };
  }

  async header(name: string): Promise<string | undefined> {
    return (await this.pool.query<{ doc: string }>('SELECT doc FROM journal_headers WHERE name = $1', [name])).rows[0]?.doc;
  }
}
