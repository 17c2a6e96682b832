// Where the replicas of a database's sandbox listen (migration 5): one row per replica, written
// and then kept counted by a connection of the replica's own that holds an advisory lock on the
// row. A row counts while that lock is held, so a replica that dies stops counting once
// PostgreSQL ends its session, and its row is deleted by the next replica that records itself.
import type { Pool, PoolClient } from 'pg';
import type { ListenerAddress, RecordedListener, ReplicaListeners } from '../record-journal.js';

/** The advisory lock class of the rows (the row's id is the lock's second key). */
const listenerLockClass = 0x6b69_726c;
/** How long a replica whose connection broke waits before recording itself again. */
const recordAgainMs = 1000;

/** True for a row (alias `l`) whose replica's session holds its lock. */
const rowHeld = `EXISTS (
  SELECT 1 FROM pg_locks k
  WHERE k.locktype = 'advisory' AND k.granted AND k.objsubid = 2
    AND k.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND k.classid = $1::integer::oid AND k.objid = l.id::oid
)`;

export class PostgresReplicaListeners implements ReplicaListeners {
  constructor(private readonly pool: Pool) {}

  async record(address: ListenerAddress): Promise<RecordedListener> {
    const recorded = new Recorded(this.pool, address);
    await recorded.take();
    return recorded;
  }

  async live(): Promise<ListenerAddress[]> {
    const { rows } = await this.pool.query<ListenerAddress>(`SELECT port, addresses FROM replica_listeners l WHERE ${rowHeld}`, [listenerLockClass]);
    return rows;
  }
}

class Recorded implements RecordedListener {
  /** The connection holding the row's lock; undefined while it is lost. */
  private client: PoolClient | undefined;
  private id = 0;
  private writings = 0;
  private gone = false;

  constructor(
    private readonly pool: Pool,
    private readonly address: ListenerAddress,
  ) {}

  get since(): number | undefined {
    return this.client === undefined ? undefined : this.writings;
  }

  /** Writes the row and takes its lock in one transaction: no other process sees it unlocked. */
  async take(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`DELETE FROM replica_listeners l WHERE NOT ${rowHeld}`, [listenerLockClass]);
      const { rows } = await client.query<{ id: number }>('INSERT INTO replica_listeners (port, addresses) VALUES ($1, $2) RETURNING id', [this.address.port, this.address.addresses]);
      this.id = rows[0]!.id;
      await client.query('SELECT pg_advisory_lock($1, $2)', [listenerLockClass, this.id]);
      await client.query('COMMIT');
    } catch (error) {
      client.release(true);
      throw error;
    }
    this.client = client;
    this.writings += 1;
    if (this.gone) return this.removed(); // removed while it was being recorded again
    // A checked-out connection that breaks would otherwise throw its error at the process.
    client.on('error', () => {
      if (this.client !== client) return;
      this.client = undefined;
      client.release(true);
      void this.recordAgain();
    });
  }

  private async recordAgain(): Promise<void> {
    while (!this.gone && this.client === undefined) {
      await new Promise((resolve) => setTimeout(resolve, recordAgainMs));
      if (!this.gone) await this.take().catch(() => undefined);
    }
  }

  async removed(): Promise<void> {
    this.gone = true;
    const client = this.client;
    this.client = undefined;
    if (client === undefined) return;
    await client.query('DELETE FROM replica_listeners WHERE id = $1', [this.id]).catch(() => undefined);
    client.release(true); // the session ends, and its lock with it
  }
}
