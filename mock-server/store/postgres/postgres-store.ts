// The postgres://… engine: one database shared by every replica of the sandbox. Each operation is
// one transaction; a check-and-set locks its row (`SELECT … FOR UPDATE`), is a single
// `INSERT … ON CONFLICT` statement, or writes only the row version it read (postgres-cells.ts), so
// replicas never spend a rate window, a nonce or an idempotency key twice. The domains' records are in its record journal (postgres-journal.ts).
// The clock's setting and a reset's emptying of the shared tables are the holder's alone: fenced
// by its hold as its journal writes are, so a holder that lost its hold changes neither.
// The process holding the journal keeps the cells in memory, written with the journal's writes (held-cells.ts).
import type { Pool } from 'pg';
import type { ClockSetting } from '../../clock.js';
import type { CellKind, Cells, ClockSettingStore, FinishedIdempotencyRecord, IdempotencySlot, IdempotencyStore, Reservation, SandboxStore, StoredResponse } from '../sandbox-store.js';
import { HeldCells, heldOrDirect } from '../held-cells.js';
import { postgresCells } from './postgres-cells.js';
import { PostgresJournal } from './postgres-journal.js';
import { PostgresWebhookStore } from './postgres-webhooks.js';
import { inTransaction } from './transaction.js';

export class PostgresStore implements SandboxStore {
  readonly engine = 'postgres';
  readonly idempotency: IdempotencyStore;
  readonly clock: ClockSettingStore;
  readonly webhooks: PostgresWebhookStore;
  readonly journal: PostgresJournal;
  private readonly cellsOfKind = new Map<CellKind, Cells<unknown>>();
  private readonly held = new HeldCells();

  constructor(
    private readonly pool: Pool,
    /** The URL without its password. */
    readonly location: string,
  ) {
    this.idempotency = new PostgresIdempotency(pool);
    this.webhooks = new PostgresWebhookStore(pool);
    this.journal = new PostgresJournal(pool, location, this.held);
    this.clock = postgresClockSetting(pool, this.journal);
  }

  cells<T>(kind: CellKind): Cells<T> {
    // One per kind: it keeps the versions this process wrote and the turns of its updates.
    if (!this.cellsOfKind.has(kind)) this.cellsOfKind.set(kind, heldOrDirect(this.held, kind, postgresCells(this.pool, kind)));
    return this.cellsOfKind.get(kind) as Cells<T>;
  }

  /** Held cells are swept in memory, their expired rows in the database (counted once, in memory). */
  async sweepExpired(nowMs: number, batch: number): Promise<number> {
    const held = this.held.held ? this.held.sweep(nowMs) : 0;
    const cells = await this.pool.query('DELETE FROM cells WHERE ctid IN (SELECT ctid FROM cells WHERE expires_at <= $1 LIMIT $2)', [nowMs, batch]);
    const records = await this.pool.query('DELETE FROM idempotency WHERE ctid IN (SELECT ctid FROM idempotency WHERE expires_at <= $1 LIMIT $2)', [nowMs, batch]);
    return (this.held.held ? held : (cells.rowCount ?? 0)) + (records.rowCount ?? 0);
  }

  async countExpiring(): Promise<number> {
    const cells = this.held.held ? String(this.held.size) : '(SELECT count(*) FROM cells)';
    const { rows } = await this.pool.query<{ n: string }>(`SELECT ${cells} + (SELECT count(*) FROM idempotency) AS n`);
    return Number(rows[0]?.n ?? 0);
  }

  /** The journal stays: the sandbox rewrites it whole once the new sandbox is built (as sqlite:). */
  async clear(): Promise<void> {
    // First: a write under way when the rows go may bring some back; the next write empties them again.
    this.held.clear();
    await this.journal.fenced((client) =>
      client.query("TRUNCATE cells, idempotency, idempotency_callers, webhook_endpoints, webhook_events, webhook_deliveries; DELETE FROM sandbox_meta WHERE name = 'clock'"),
    );
  }

  async close(): Promise<void> {
    await this.journal.release();
    await this.pool.end();
  }
}

interface IdempotencyRow {
  fingerprint: string;
  reserved_at: string;
  expires_at: string;
  status: number | null;
  headers: string | null;
  body: Buffer | null;
}

class PostgresIdempotency implements IdempotencyStore {
  constructor(private readonly pool: Pool) {}

  reserve(slot: IdempotencySlot, fingerprint: string, nowMs: number, expiresAtMs: number, limits: { maxPerCaller: number; pendingLeaseMs: number }): Promise<Reservation> {
    return inTransaction(this.pool, async (client) => {
      // The caller's row orders its reservations: two replicas reserving one key take turns.
      await client.query('INSERT INTO idempotency_callers (caller, records) VALUES ($1, 0) ON CONFLICT DO NOTHING', [slot.caller]);
      const records = async () => (await client.query<{ records: number }>('SELECT records FROM idempotency_callers WHERE caller = $1 FOR UPDATE', [slot.caller])).rows[0]?.records ?? 0;
      let held = await records();
      const row = (
        await client.query<IdempotencyRow>('SELECT fingerprint, reserved_at, expires_at, status, headers, body FROM idempotency WHERE caller = $1 AND key = $2', [slot.caller, slot.key])
      ).rows[0];
      if (row !== undefined && Number(row.expires_at) > nowMs) {
        if (row.status !== null) return { kind: 'stored', response: storedResponse(row) };
        if (nowMs - Number(row.reserved_at) < limits.pendingLeaseMs) return { kind: 'pending', fingerprint: row.fingerprint };
        await client.query('UPDATE idempotency SET fingerprint = $3, reserved_at = $4 WHERE caller = $1 AND key = $2', [slot.caller, slot.key, fingerprint, nowMs]);
        return { kind: 'reserved' };
      }
      if (row !== undefined) await client.query('DELETE FROM idempotency WHERE caller = $1 AND key = $2', [slot.caller, slot.key]);
      if (held >= limits.maxPerCaller) {
        await client.query('DELETE FROM idempotency WHERE caller = $1 AND expires_at <= $2', [slot.caller, nowMs]);
        held = await records();
        if (held >= limits.maxPerCaller) {
          const earliest = (await client.query<{ at: string | null }>('SELECT min(expires_at) AS at FROM idempotency WHERE caller = $1', [slot.caller])).rows[0]?.at;
          return { kind: 'full', limit: limits.maxPerCaller, retryAtMs: earliest === null || earliest === undefined ? expiresAtMs : Number(earliest) };
        }
      }
      await client.query('INSERT INTO idempotency (caller, key, fingerprint, reserved_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [slot.caller, slot.key, fingerprint, nowMs, expiresAtMs]);
      return { kind: 'reserved' };
    });
  }

  async complete(slot: IdempotencySlot, response: StoredResponse): Promise<void> {
    await this.pool.query('UPDATE idempotency SET status = $3, headers = $4, body = $5 WHERE caller = $1 AND key = $2', [
      slot.caller,
      slot.key,
      response.status,
      JSON.stringify(response.headers),
      response.body,
    ]);
  }

  async release(slot: IdempotencySlot): Promise<void> {
    await this.pool.query('DELETE FROM idempotency WHERE caller = $1 AND key = $2 AND status IS NULL', [slot.caller, slot.key]);
  }

  async abandonPending(): Promise<void> {
    await this.pool.query('DELETE FROM idempotency WHERE status IS NULL');
  }

  async finished(nowMs: number): Promise<FinishedIdempotencyRecord[]> {
    const { rows } = await this.pool.query<IdempotencyRow & { caller: string; key: string }>(
      'SELECT caller, key, fingerprint, reserved_at, expires_at, status, headers, body FROM idempotency WHERE status IS NOT NULL AND expires_at > $1 ORDER BY expires_at, caller, key',
      [nowMs],
    );
    return rows.map((row) => ({ caller: row.caller, key: row.key, reservedAtMs: Number(row.reserved_at), expiresAtMs: Number(row.expires_at), response: storedResponse(row) }));
  }

  async restore(record: FinishedIdempotencyRecord): Promise<void> {
    const { response } = record;
    await this.pool.query('INSERT INTO idempotency (caller, key, fingerprint, reserved_at, expires_at, status, headers, body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
      record.caller,
      record.key,
      response.fingerprint,
      record.reservedAtMs,
      record.expiresAtMs,
      response.status,
      JSON.stringify(response.headers),
      response.body,
    ]);
  }
}

function storedResponse(row: IdempotencyRow): StoredResponse {
  return { fingerprint: row.fingerprint, status: row.status ?? 0, headers: JSON.parse(row.headers ?? '{}') as StoredResponse['headers'], body: row.body ?? Buffer.alloc(0) };
}

/** Kept by the holder alone: fenced as its journal writes are. */
function postgresClockSetting(pool: Pool, journal: PostgresJournal): ClockSettingStore {
  return {
    load: async () => {
      const row = (await pool.query<{ value: string }>("SELECT value FROM sandbox_meta WHERE name = 'clock'")).rows[0];
      return row === undefined ? undefined : (JSON.parse(row.value) as ClockSetting);
    },
    save: async (setting) => {
      await journal.fenced((client) =>
        client.query("INSERT INTO sandbox_meta (name, value) VALUES ('clock', $1) ON CONFLICT (name) DO UPDATE SET value = excluded.value", [JSON.stringify(setting)]),
      );
    },
  };
}
