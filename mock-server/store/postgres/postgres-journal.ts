// The postgres:// engine's record journal (record-journal.ts): two tables (migration 3), each unit
// of work one call of the function journal_write (migration 6), whatever its size (the rows go as
// arrays): one statement, one round trip, its own transaction.
// The journal is held by one process through a session advisory lock on a connection of its own,
// kept until the store closes (or the process dies, which ends the session and frees the lock).
// Replicas wait for that lock (JournalHolding); the holder's row (migration 4) says where they
// reach the holder, and its epoch fences a holder that lost its lock from writing. Where the
// replicas listen is recorded beside it (postgres-replica-listeners.ts). The holder keeps the
// cells in memory from the moment it takes the hold (held-cells.ts); each write carries the ones
// changed since the last. A hold that ends while the process runs (its lock's session ended, a
// write refused by the fence, the server gone: unreachable-because.ts tells which) is reported
// once to the onLost listeners, and every later write is refused without a round trip.
import type { Pool, PoolClient } from 'pg';
import {
  JournalHeldElsewhere,
  JournalHoldLost,
  SandboxDatabaseLost,
  type SandboxHoldEnded,
  type HolderAddress,
  type JournalContents,
  type JournalHolding,
  type JournalRow,
  type JournalWrite,
  type RecordJournal,
} from '../record-journal.js';
import type { CellRow, HeldCells } from '../held-cells.js';
import { PostgresReplicaListeners } from './postgres-replica-listeners.js';
import { inTransaction } from './transaction.js';
import { unreachableBecause } from './unreachable-because.js';

/** The advisory lock key of the journal's holder (advisory locks are per database). */
const holderLock = 0x6b69_746a;
/** The SQLSTATE journal_write raises when the epoch it was given is no longer the holder's (migration 6). */
const holdLostState = 'KJ001';
/** How long a replica waits before asking for the lock again when its wait's connection failed. */
const waitRetryMs = 1000;

export class PostgresJournal implements RecordJournal, JournalHolding {
  readonly holding: JournalHolding = this;
  readonly replicaListeners: PostgresReplicaListeners;
  /** The connection holding the lock while this process holds the journal. */
  private lockClient: PoolClient | undefined;
  /** The hold this process took (sandbox_holder.epoch); undefined while it holds none. */
  private epoch: string | undefined;
  /** The connection waiting for the lock (waitToHold), ended by release(). */
  private waiter: PoolClient | undefined;
  private released = false;
  private markReleased!: () => void;
  /** Settles (with nothing) when release() starts. */
  private readonly whenReleased = new Promise<undefined>((resolve) => (this.markReleased = () => resolve(undefined)));
  private readonly lostListeners: ((error: Error) => void)[] = [];
  /** Why the hold this process took ended while it ran: every write is refused with it from then on. */
  private lost: SandboxHoldEnded | undefined;

  constructor(
    private readonly pool: Pool,
    /** The URL without its password, for messages. */
    private readonly location: string,
    readonly cellChanges: HeldCells,
  ) {
    this.replicaListeners = new PostgresReplicaListeners(pool);
  }

  async hold(): Promise<void> {
    if (this.lockClient !== undefined) return;
    const client = await this.pool.connect();
    const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1) AS held', [holderLock]).catch((error: unknown) => {
      client.release(true);
      throw error;
    });
    if (rows[0]?.held !== true) {
      client.release();
      throw new JournalHeldElsewhere(this.location);
    }
    await this.takeHold(client);
  }

  async waitToHold(): Promise<void> {
    while (this.lockClient === undefined) {
      if (this.released) throw this.closedWhileWaiting();
      // release() may come while the connection does: the pool's end() neither serves nor fails
      // a connect() still under way, so the wait would never end.
      const connecting = this.pool.connect();
      const client = await Promise.race([connecting, this.whenReleased]).catch((error: Error) => {
        throw new SandboxDatabaseLost(this.location, error.message);
      });
      if (client === undefined || this.released) {
        void connecting.then((late) => late.release(true), () => undefined);
        throw this.closedWhileWaiting();
      }
      this.waiter = client;
      // Blocks until the holder's session ends (it stopped, or died and the server noticed).
      const locked = await client.query('SELECT pg_advisory_lock($1)', [holderLock]).then(
        () => true,
        () => false,
      );
      // Given back here, not after the pause below: release() must not find a connection given back already.
      this.waiter = undefined;
      if (!locked) {
        if (this.released) throw this.closedWhileWaiting(); // release() ended the connection
        client.release(true);
        await Promise.race([new Promise((resolve) => setTimeout(resolve, waitRetryMs)), this.whenReleased]);
        continue;
      }
      if (this.released) {
        client.release(true); // the lock goes with the connection: the store closed meanwhile
        throw this.closedWhileWaiting();
      }
      await this.takeHold(client);
    }
  }

  private closedWhileWaiting(): Error {
    return new Error(`the store ${this.location} was closed while waiting to hold its sandbox`);
  }

  /** Counts the hold taken on `client`, which keeps the lock; fails (lock given back) when it cannot. */
  private async takeHold(client: PoolClient): Promise<void> {
    try {
      // Waits for a write of the previous holder that is still running (it holds the row FOR SHARE).
      const { rows } = await client.query<{ epoch: string }>('UPDATE sandbox_holder SET epoch = epoch + 1, peer_url = NULL, secret = NULL RETURNING epoch::text AS epoch');
      this.epoch = rows[0]!.epoch;
      // Read after the previous holder's last write: its cells as it acknowledged them.
      const cells = await client.query<CellRow & { expiresAtMs: string }>('SELECT kind, key, value, expires_at AS "expiresAtMs" FROM cells');
      this.cellChanges.hold(cells.rows.map((row) => ({ ...row, expiresAtMs: Number(row.expiresAtMs) })));
      // release() came while the hold was being taken: it found no hold to give back, and the
      // pool's end() would wait for this connection for ever. The lock goes with it.
      if (this.released) throw this.closedWhileWaiting();
    } catch (error) {
      client.release(true);
      throw error;
    }
    // A checked-out connection that breaks would otherwise throw its error at the process.
    client.on('error', (error) => {
      if (this.lockClient !== client) return;
      this.lockClient = undefined;
      client.release(error); // gone from the pool, which would otherwise wait for it on close
      // The session may have ended alone (ended by an administrator, a network cut) or with the server.
      void unreachableBecause(this.pool).then((reason) =>
        reason === undefined ? this.lose(new JournalHoldLost(this.location), error) : this.lose(new SandboxDatabaseLost(this.location, reason)),
      );
    });
    this.lockClient = client;
  }

  onLost(listener: (error: Error) => void): void {
    this.lostListeners.push(listener);
  }

  /** Counts the hold as ended (once: the first reason stays) and tells the listeners why (`told`, default `ended`). */
  private lose(ended: SandboxHoldEnded, told: Error = ended): SandboxHoldEnded {
    if (this.lost !== undefined) return this.lost;
    this.lost = ended;
    for (const listener of this.lostListeners) listener(told);
    return ended;
  }

  async announce(address: HolderAddress): Promise<void> {
    const { rowCount } = await this.pool.query('UPDATE sandbox_holder SET peer_url = $1, secret = $2 WHERE epoch = $3', [address.url, address.secret, this.epoch ?? '-1']);
    if (rowCount !== 1) throw new JournalHoldLost(this.location);
  }

  async holder(): Promise<HolderAddress | undefined> {
    const row = (await this.pool.query<{ peer_url: string | null; secret: string | null }>('SELECT peer_url, secret FROM sandbox_holder')).rows[0];
    return row?.peer_url == null || row.secret == null ? undefined : { url: row.peer_url, secret: row.secret };
  }

  /**
   * Frees the lock before the store's close resolves, so a mock started next on the database may
   * take it (ending the connection alone frees it only once the server has ended that session).
   */
  async release(): Promise<void> {
    this.released = true;
    this.markReleased();
    this.waiter?.release(true);
    const holder = this.lockClient;
    this.lockClient = undefined;
    if (holder === undefined) return;
    const unlocked = await holder.query('SELECT pg_advisory_unlock($1)', [holderLock]).then(
      () => true,
      () => false,
    );
    holder.release(!unlocked);
  }

  async write(change: JournalWrite): Promise<void> {
    if (this.lost !== undefined) throw this.lost;
    // One statement (migration 6), so one round trip: a flush's answers wait for no more.
    const cells = change.cells ?? { cleared: false, rows: [] };
    const gone = cells.rows.filter((row) => row.value === undefined);
    const kept = cells.rows.filter((row) => row.value !== undefined);
    const headers = [...change.headers];
    try {
      await this.pool.query('SELECT journal_write($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)', [
        // Fenced: a process whose hold another took over writes nothing (migration 4).
        this.epoch ?? null,
        change.whole,
        cells.cleared,
        gone.map((row) => row.kind),
        gone.map((row) => row.key),
        kept.map((row) => row.kind),
        kept.map((row) => row.key),
        kept.map((row) => row.value),
        kept.map((row) => row.expiresAtMs),
        change.deletes.map((row) => row.kind),
        change.deletes.map((row) => row.id),
        change.upserts.map((row) => row.kind),
        change.upserts.map((row) => row.id),
        change.upserts.map((row) => row.doc),
        headers.map(([name]) => name),
        headers.map(([, doc]) => doc),
      ]);
    } catch (error) {
      throw await this.writeFailure(error);
    }
  }

  /**
   * Runs `work` in one transaction that first checks, as journal_write does, that this process
   * still holds the sandbox: what only the holder writes beside the journal (the clock's setting,
   * a reset's emptying) is fenced as the journal is. Unfenced while it holds none, as a write is.
   */
  async fenced<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    if (this.lost !== undefined) throw this.lost;
    try {
      return await inTransaction(this.pool, async (client) => {
        if (this.epoch !== undefined) {
          const { rowCount } = await client.query('SELECT 1 FROM sandbox_holder WHERE epoch = $1 FOR SHARE', [this.epoch]);
          if (rowCount !== 1) throw this.lose(new JournalHoldLost(this.location));
        }
        return work(client);
      });
    } catch (error) {
      throw error instanceof JournalHoldLost ? error : await this.writeFailure(error);
    }
  }

  /** What a refused write means: the hold lost to the fence, the server gone (both end the hold), or `error` itself. */
  private async writeFailure(error: unknown): Promise<unknown> {
    if ((error as { code?: unknown }).code === holdLostState) return this.lose(new JournalHoldLost(this.location));
    // A server stopped or gone ends the hold's session too: the holder stops, saying so.
    const reason = await unreachableBecause(this.pool);
    return reason === undefined ? error : this.lose(new SandboxDatabaseLost(this.location, reason));
  }

  async read(without: readonly string[] = []): Promise<JournalContents | undefined> {
    const headers = new Map((await this.pool.query<{ name: string; doc: string }>('SELECT name, doc FROM journal_headers')).rows.map(({ name, doc }) => [name, doc]));
    if (headers.size === 0) return undefined;
    const rows = (await this.pool.query<JournalRow>('SELECT kind, id, doc FROM journal_records WHERE kind <> ALL($1) ORDER BY seq', [without])).rows;
    return { headers, rows };
  }

  async header(name: string): Promise<string | undefined> {
    return (await this.pool.query<{ doc: string }>('SELECT doc FROM journal_headers WHERE name = $1', [name])).rows[0]?.doc;
  }
}
