// The sqlite:PATH engine: one database file, durable across restarts. better-sqlite3 is
// synchronous, so every operation below is one transaction that no other request of this process
// can interleave with; `BEGIN IMMEDIATE` takes the write lock first, so another process on the same
// file waits instead of reading a value about to change. WAL with synchronous=NORMAL: a committed
// transaction survives the process being killed; an operating-system crash may lose the last ones.
// Once the process holds the file (sqlite-hold.ts), its cells are kept in memory and written with
// the journal's writes (held-cells.ts); until then, and in stores sharing a file, in the database.
import type { ClockSetting } from '../../clock.js';
import type { Database, Statement } from 'better-sqlite3';
import { HeldCells, heldOrDirect } from '../held-cells.js';
import { SqliteJournal } from './sqlite-journal.js';
import { SqliteWebhookStore } from './sqlite-webhooks.js';
import { SqliteDepositStore } from './sqlite-deposits.js';
import type { DepositFields } from '../deposit-store.js';
import type { CellChange, CellKind, Cells, ClockSettingStore, FinishedIdempotencyRecord, IdempotencySlot, IdempotencyStore, Reservation, SandboxStore, StoredResponse } from '../sandbox-store.js';

interface CellRow {
  value: string;
  expires_at: number;
}

interface IdempotencyRow {
  fingerprint: string;
  reserved_at: number;
  expires_at: number;
  status: number | null;
  headers: string | null;
  body: Buffer | null;
}

export class SqliteStore implements SandboxStore {
  readonly engine = 'sqlite';
  readonly idempotency: IdempotencyStore;
  readonly clock: ClockSettingStore;
  readonly webhooks: SqliteWebhookStore;
  readonly journal: SqliteJournal;
  private readonly cellReads: Statement<[string, string], CellRow>;
  private readonly cellWrite: Statement<[string, string, string, number]>;
  private readonly cellClaim: Statement<[string, string, string, number, number]>;
  private readonly cellEntries: Statement<[string, number], { key: string; value: string; expires_at: number }>;
  private readonly sweepCells: Statement<[number, number]>;
  private readonly sweepRecords: Statement<[number, number]>;
  private readonly held = new HeldCells();
  /** The deposits of the newest generation: a whole write of the journal is that generation's. */
  private latestDeposits: SqliteDepositStore<object> | null = null;

  constructor(
    private readonly db: Database,
    readonly location: string,
  ) {
    this.cellReads = db.prepare('SELECT value, expires_at FROM cells WHERE kind = ? AND key = ?');
    this.cellWrite = db.prepare(
      'INSERT INTO cells (kind, key, value, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
    );
    this.cellClaim = db.prepare(
      'INSERT INTO cells (kind, key, value, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at WHERE cells.expires_at <= ?',
    );
    this.cellEntries = db.prepare('SELECT key, value, expires_at FROM cells WHERE kind = ? AND expires_at > ? ORDER BY key');
    this.sweepCells = db.prepare('DELETE FROM cells WHERE (kind, key) IN (SELECT kind, key FROM cells WHERE expires_at <= ? LIMIT ?)');
    this.sweepRecords = db.prepare('DELETE FROM idempotency WHERE rowid IN (SELECT rowid FROM idempotency WHERE expires_at <= ? LIMIT ?)');
    this.idempotency = new SqliteIdempotency(db);
    this.clock = sqliteClockSetting(db);
    this.webhooks = new SqliteWebhookStore(db);
    this.journal = new SqliteJournal(db, location, this.held);
    this.journal.onWhole = () => this.latestDeposits?.attach();
  }

  deposits<R extends object>(fields: DepositFields<R>): SqliteDepositStore<R> {
    const store = new SqliteDepositStore(this.db, fields);
    this.latestDeposits = store as unknown as SqliteDepositStore<object>;
    return store;
  }

  cells<T>(kind: CellKind): Cells<T> {
    return heldOrDirect(this.held, kind, this.directCells<T>(kind));
  }

  private directCells<T>(kind: CellKind): Cells<T> {
    const read = (key: string, nowMs: number): T | undefined => {
      const row = this.cellReads.get(kind, key);
      return row !== undefined && row.expires_at > nowMs ? (JSON.parse(row.value) as T) : undefined;
    };
    const update = this.db.transaction(<R>(key: string, nowMs: number, change: (current: T | undefined) => CellChange<T, R>): R => {
      const next = change(read(key, nowMs));
      this.cellWrite.run(kind, key, JSON.stringify(next.value), next.expiresAtMs);
      return next.result;
    });
    return {
      get: async (key, nowMs) => read(key, nowMs),
      update: async <R>(key: string, nowMs: number, change: (current: T | undefined) => CellChange<T, R>) => update.immediate(key, nowMs, change) as R,
      // One statement: it inserts, or replaces an expired cell, or changes nothing.
      claim: async (key, value, nowMs, expiresAtMs) => this.cellClaim.run(kind, key, JSON.stringify(value), expiresAtMs, nowMs).changes === 1,
      entries: async (nowMs) =>
        this.cellEntries.all(kind, nowMs).map((row) => ({ key: row.key, value: JSON.parse(row.value) as T, expiresAtMs: row.expires_at })),
    };
  }

  /** Held cells are swept in memory, their expired rows in the database (counted once, in memory). */
  async sweepExpired(nowMs: number, batch: number): Promise<number> {
    const held = this.held.held ? this.held.sweep(nowMs) : 0;
    const sweep = this.db.transaction(() => {
      const cells = this.sweepCells.run(nowMs, batch).changes;
      return (this.held.held ? held : cells) + this.sweepRecords.run(nowMs, batch).changes;
    });
    return sweep.immediate();
  }

  async countExpiring(): Promise<number> {
    const cells = this.held.held ? String(this.held.size) : '(SELECT count(*) FROM cells)';
    const row = this.db.prepare(`SELECT ${cells} + (SELECT count(*) FROM idempotency) AS n`).get() as { n: number };
    return row.n;
  }

  /**
   * The journal is left as it is: the sandbox rewrites it whole once the new sandbox is built
   * (one transaction), so a process dying in between resumes the sandbox as it was before.
   */
  async clear(): Promise<void> {
    this.db
      .transaction(() => {
        this.db.exec("DELETE FROM cells; DELETE FROM idempotency; DELETE FROM idempotency_callers; DELETE FROM sandbox_meta WHERE name = 'clock';");
        this.webhooks.clearNow();
      })
      .immediate();
    this.held.clear();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

class SqliteIdempotency implements IdempotencyStore {
  private readonly reserveTx;
  private readonly completeRow: Statement<[number, string, Buffer, string, string]>;
  private readonly finishedRows: Statement<[number], IdempotencyRow & { caller: string; key: string }>;
  private readonly restoreRow: Statement<[string, string, string, number, number, number, string, Buffer]>;
  private readonly releaseRow: Statement<[string, string]>;
  private readonly pendingRows: Statement<[]>;

  constructor(db: Database) {
    const held = db.prepare<[string, string], IdempotencyRow>('SELECT fingerprint, reserved_at, expires_at, status, headers, body FROM idempotency WHERE caller = ? AND key = ?');
    const drop = db.prepare<[string, string]>('DELETE FROM idempotency WHERE caller = ? AND key = ?');
    const takeOver = db.prepare<[string, number, string, string]>('UPDATE idempotency SET fingerprint = ?, reserved_at = ? WHERE caller = ? AND key = ?');
    const dropExpired = db.prepare<[string, number]>('DELETE FROM idempotency WHERE caller = ? AND expires_at <= ?');
    const records = db.prepare<[string], { records: number }>('SELECT records FROM idempotency_callers WHERE caller = ?');
    const earliest = db.prepare<[string], { at: number }>('SELECT min(expires_at) AS at FROM idempotency WHERE caller = ?');
    const insert = db.prepare<[string, string, string, number, number]>('INSERT INTO idempotency (caller, key, fingerprint, reserved_at, expires_at) VALUES (?, ?, ?, ?, ?)');
    this.completeRow = db.prepare('UPDATE idempotency SET status = ?, headers = ?, body = ? WHERE caller = ? AND key = ?');
    this.releaseRow = db.prepare('DELETE FROM idempotency WHERE caller = ? AND key = ? AND status IS NULL');
    this.pendingRows = db.prepare('DELETE FROM idempotency WHERE status IS NULL');
    this.finishedRows = db.prepare(
      'SELECT caller, key, fingerprint, reserved_at, expires_at, status, headers, body FROM idempotency WHERE status IS NOT NULL AND expires_at > ? ORDER BY expires_at, caller, key',
    );
    this.restoreRow = db.prepare('INSERT INTO idempotency (caller, key, fingerprint, reserved_at, expires_at, status, headers, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    this.reserveTx = db.transaction(
      (slot: IdempotencySlot, fingerprint: string, nowMs: number, expiresAtMs: number, limits: { maxPerCaller: number; pendingLeaseMs: number }): Reservation => {
        const row = held.get(slot.caller, slot.key);
        if (row !== undefined && row.expires_at > nowMs) {
          if (row.status !== null) return { kind: 'stored', response: storedResponse(row) };
          if (nowMs - row.reserved_at < limits.pendingLeaseMs) return { kind: 'pending', fingerprint: row.fingerprint };
          takeOver.run(fingerprint, nowMs, slot.caller, slot.key); // its request never finished: the lease ran out
          return { kind: 'reserved' };
        }
        if (row !== undefined) drop.run(slot.caller, slot.key);
        if ((records.get(slot.caller)?.records ?? 0) >= limits.maxPerCaller) {
          dropExpired.run(slot.caller, nowMs);
          if ((records.get(slot.caller)?.records ?? 0) >= limits.maxPerCaller) {
            return { kind: 'full', limit: limits.maxPerCaller, retryAtMs: earliest.get(slot.caller)?.at ?? expiresAtMs };
          }
        }
        insert.run(slot.caller, slot.key, fingerprint, nowMs, expiresAtMs);
        return { kind: 'reserved' };
      },
    );
  }

  async reserve(slot: IdempotencySlot, fingerprint: string, nowMs: number, expiresAtMs: number, limits: { maxPerCaller: number; pendingLeaseMs: number }): Promise<Reservation> {
    return this.reserveTx.immediate(slot, fingerprint, nowMs, expiresAtMs, limits);
  }

  async complete(slot: IdempotencySlot, response: StoredResponse): Promise<void> {
    this.completeRow.run(response.status, JSON.stringify(response.headers), response.body, slot.caller, slot.key);
  }

  async release(slot: IdempotencySlot): Promise<void> {
    this.releaseRow.run(slot.caller, slot.key);
  }

  async abandonPending(): Promise<void> {
    this.pendingRows.run();
  }

  async finished(nowMs: number): Promise<FinishedIdempotencyRecord[]> {
    return this.finishedRows.all(nowMs).map((row) => ({
      caller: row.caller,
      key: row.key,
      reservedAtMs: row.reserved_at,
      expiresAtMs: row.expires_at,
      response: storedResponse(row),
    }));
  }

  async restore(record: FinishedIdempotencyRecord): Promise<void> {
    const { response } = record;
    this.restoreRow.run(record.caller, record.key, response.fingerprint, record.reservedAtMs, record.expiresAtMs, response.status, JSON.stringify(response.headers), response.body);
  }
}

function storedResponse(row: IdempotencyRow): StoredResponse {
  return { fingerprint: row.fingerprint, status: row.status ?? 0, headers: JSON.parse(row.headers ?? '{}') as StoredResponse['headers'], body: row.body ?? Buffer.alloc(0) };
}

function sqliteClockSetting(db: Database): ClockSettingStore {
  const read = db.prepare<[], { value: string }>("SELECT value FROM sandbox_meta WHERE name = 'clock'");
  const write = db.prepare<[string]>("INSERT INTO sandbox_meta (name, value) VALUES ('clock', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value");
  return {
    load: async () => {
      const row = read.get();
      return row === undefined ? undefined : (JSON.parse(row.value) as ClockSetting);
    },
    save: async (setting) => {
      write.run(JSON.stringify(setting));
    },
  };
}
