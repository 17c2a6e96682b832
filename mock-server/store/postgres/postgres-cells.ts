// The postgres:// engine's cells (sandbox-store.ts): rate windows, usage and nonces, shared by
// every process on the database. An update is a compare-and-set on the row's version (its xmin):
// it writes only when the row is still the one the change was computed from, and reads again and
// retries when another process wrote it in between. The version this process wrote last is kept,
// so when one process does the updates an update is one statement, not a locking transaction of
// five; updates of one cell in this process take turns, so they never race each other. The
// process holding the sandbox keeps its cells in memory instead (held-cells.ts): these serve a
// store until it holds the sandbox, and stores sharing the database without holding it.
import type { Pool } from 'pg';
import type { CellChange, Cells, CellKind } from '../sandbox-store.js';

interface CellRow {
  value: string;
  expires_at: string;
  version: string;
}

/** Rows whose version this process knows, at most this many (the oldest forgotten first: it is read again). */
const knownRowsLimit = 10_000;

export function postgresCells<T>(pool: Pool, kind: CellKind): Cells<T> {
  const known = new Map<string, CellRow>();
  const turns = new Map<string, Promise<unknown>>();
  const live = (row: CellRow | undefined, nowMs: number): T | undefined => (row !== undefined && Number(row.expires_at) > nowMs ? (JSON.parse(row.value) as T) : undefined);
  const read = async (key: string): Promise<CellRow | undefined> =>
    (await pool.query<CellRow>('SELECT value, expires_at, xmin::text AS version FROM cells WHERE kind = $1 AND key = $2', [kind, key])).rows[0];
  const remember = (key: string, row: CellRow | undefined): void => {
    known.delete(key);
    if (row === undefined) return;
    if (known.size >= knownRowsLimit) known.delete(known.keys().next().value!);
    known.set(key, row);
  };

  /** One compare-and-set: the new row when it was written, undefined when `row` is no longer the cell's. */
  const write = async (key: string, row: CellRow | undefined, value: string, expiresAtMs: number): Promise<CellRow | undefined> => {
    const { rows } =
      row === undefined
        ? await pool.query<{ version: string }>('INSERT INTO cells (kind, key, value, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING xmin::text AS version', [kind, key, value, expiresAtMs])
        : await pool.query<{ version: string }>('UPDATE cells SET value = $3, expires_at = $4 WHERE kind = $1 AND key = $2 AND xmin = $5::text::xid RETURNING xmin::text AS version', [
            kind,
            key,
            value,
            expiresAtMs,
            row.version,
          ]);
    return rows[0] === undefined ? undefined : { value, expires_at: String(expiresAtMs), version: rows[0].version };
  };

  const update = async <R>(key: string, nowMs: number, change: (current: T | undefined) => CellChange<T, R>): Promise<R> => {
    let row = known.has(key) ? known.get(key) : await read(key);
    for (;;) {
      const next = change(live(row, nowMs));
      const written = await write(key, row, JSON.stringify(next.value), next.expiresAtMs);
      if (written !== undefined) {
        remember(key, written);
        return next.result;
      }
      row = await read(key); // another process wrote it (or swept it): change what is there now
    }
  };

  return {
    get: async (key, nowMs) => live(await read(key), nowMs),
    update: <R>(key: string, nowMs: number, change: (current: T | undefined) => CellChange<T, R>): Promise<R> => {
      // This process's updates of one cell take turns: none computes from a row another is replacing.
      const turn = (turns.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => update(key, nowMs, change));
      turns.set(key, turn);
      void turn.finally(() => {
        if (turns.get(key) === turn) turns.delete(key);
      }).catch(() => undefined);
      return turn;
    },
    claim: async (key, value, nowMs, expiresAtMs) => {
      const result = await pool.query(
        'INSERT INTO cells (kind, key, value, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at WHERE cells.expires_at <= $5',
        [kind, key, JSON.stringify(value), expiresAtMs, nowMs],
      );
      known.delete(key);
      return result.rowCount === 1;
    },
    entries: async (nowMs) => {
      const { rows } = await pool.query<CellRow & { key: string }>('SELECT key, value, expires_at FROM cells WHERE kind = $1 AND expires_at > $2 ORDER BY key', [kind, nowMs]);
      return rows.map((row) => ({ key: row.key, value: JSON.parse(row.value) as T, expiresAtMs: Number(row.expires_at) }));
    },
  };
}
