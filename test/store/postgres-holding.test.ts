// The hold on a shared sandbox's journal (record-journal.ts, JournalHolding) on a real PostgreSQL
// server: one store holds it, another waits for it and gets it once the holder's session ends; the
// holder's address is announced to the others; and a holder that lost its hold (its connection was
// ended, another took over) can write nothing more: its write is refused, not merged. Where the
// replicas listen (ReplicaListeners) is read by the others as live until it is removed or the
// session behind it ends (a replica killed, a connection cut); a replica whose connection was cut
// records itself again on its own.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../mock-server/store/open-store.js';
import { JournalHeldElsewhere, JournalHoldLost, type JournalWrite } from '../../mock-server/store/record-journal.js';
import type { SandboxStore } from '../../mock-server/store/sandbox-store.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { engines } from './support/engines.js';

const hasPostgres = engines.some((make) => make().name === 'postgres');

const oneRecord = (doc: string): JournalWrite => ({ whole: false, headers: new Map([['top', '{}']]), upserts: [{ kind: 'order', id: '1', doc }], deletes: [] });

/** Ends the sessions holding advisory locks (the journal's, a replica listener's), as a network failure or a DBA would. */
async function endLockSessions(url: string): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  await client.query("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()");
  await client.end();
}

/** Whether `condition` came true within 10 s, asked every 20 ms. */
async function until(condition: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

describe.runIf(hasPostgres)('the hold on a postgres:// sandbox', () => {
  let server: PostgresServer;
  const opened: SandboxStore[] = [];
  const open = async (url: string) => {
    const store = await openStore(url);
    opened.push(store);
    return store;
  };
  const listenersOf = (store: SandboxStore) => store.journal!.holding!.replicaListeners;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    for (const store of opened) await store.close().catch(() => undefined);
    server.stop();
  });

  it('is taken by one store; another waits for it and gets it when the holder closes', async () => {
    const url = await server.createDatabase();
    const [first, second] = [await open(url), await open(url)];
    await first.journal!.hold();
    await expect(second.journal!.hold()).rejects.toBeInstanceOf(JournalHeldElsewhere);
    await first.journal!.holding!.announce({ url: 'http://127.0.0.1:9/first', secret: 's1' });
    expect(await second.journal!.holding!.holder()).toEqual({ url: 'http://127.0.0.1:9/first', secret: 's1' });

    let waited = false;
    const waiting = second.journal!.holding!.waitToHold().then(() => (waited = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(waited).toBe(false);
    await first.close();
    await waiting;
    // A new holder is reached nowhere until it announces itself.
    expect(await second.journal!.holding!.holder()).toBeUndefined();
    await second.journal!.write(oneRecord('{"by":"second"}'));
  });

  it('closes a store that started waiting a moment ago, while the holder still holds', async () => {
    const url = await server.createDatabase();
    const [first, second] = [await open(url), await open(url)];
    await first.journal!.hold();
    // Closed before the wait's connection arrived: the wait must end, not block the store's close
    // until the holder lets go.
    const waiting = second.journal!.holding!.waitToHold();
    const closing = second.close();
    await expect(waiting).rejects.toThrow(/closed while waiting/);
    await closing;
    expect(await first.journal!.holding!.holder()).toBeUndefined();
  }, 10_000);

  it('closes a store that got the lock while closing, and leaves the sandbox free (SIGTERM to every worker at once)', async () => {
    const url = await server.createDatabase();
    const [first, second, third] = [await open(url), await open(url), await open(url)];
    await first.journal!.hold();
    const waited = second.journal!.holding!.waitToHold().then(() => 'held', (error: Error) => error.message);
    // The holder's row held by another session: the waiter, once it has the lock, stops in
    // the middle of taking the hold, where the store's close comes.
    const blocker = new pg.Client(url);
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT 1 FROM sandbox_holder FOR UPDATE');
    await first.close();
    // Asked outside the blocker's transaction, which sees the activity as it was when it began.
    const watcher = new pg.Client(url);
    await watcher.connect();
    const takingHold = async () =>
      (await watcher.query("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE sandbox_holder%'")).rowCount === 1;
    expect(await until(takingHold)).toBe(true);
    await watcher.end();
    const closing = second.close();
    await blocker.query('COMMIT');
    await blocker.end();
    expect(await waited).toMatch(/closed while waiting/);
    await closing;
    await third.journal!.hold();
  }, 15_000);

  it('refuses the writes of a holder whose hold another store took over, and tells it', async () => {
    const url = await server.createDatabase();
    const [first, second] = [await open(url), await open(url)];
    await first.journal!.hold();
    await first.journal!.write(oneRecord('{"by":"first"}'));
    const lost = new Promise<Error>((resolve) => first.journal!.holding!.onLost(resolve));
    const waiting = second.journal!.holding!.waitToHold();
    await endLockSessions(url);
    await waiting;
    await lost;
    await expect(first.journal!.write(oneRecord('{"by":"first, after losing"}'))).rejects.toBeInstanceOf(JournalHoldLost);
    await expect(first.journal!.holding!.announce({ url: 'http://127.0.0.1:9/stale', secret: 's' })).rejects.toBeInstanceOf(JournalHoldLost);
    await second.journal!.write(oneRecord('{"by":"second"}'));
    const rows = [...(await second.journal!.read())!.rows];
    expect(rows.map((row) => row.doc)).toEqual(['{"by":"second"}']);
  });

  it("changes neither the clock's setting nor, by a reset, the shared rows once another store took the hold over", async () => {
    const url = await server.createDatabase();
    const [first, second] = [await open(url), await open(url)];
    await first.journal!.hold();
    await first.clock.save({ offsetMs: 0, frozenAtMs: 1_000 });
    const lost = new Promise<Error>((resolve) => first.journal!.holding!.onLost(resolve));
    const waiting = second.journal!.holding!.waitToHold();
    await endLockSessions(url);
    await waiting;
    await lost;
    await second.clock.save({ offsetMs: 0, frozenAtMs: 2_000 });
    await second.idempotency.reserve({ caller: 'key_1', key: 'k' }, 'f', 0, 60_000, { maxPerCaller: 10, pendingLeaseMs: 1_000 });
    await expect(first.clock.save({ offsetMs: 0, frozenAtMs: 3_000 })).rejects.toBeInstanceOf(JournalHoldLost);
    await expect(first.clear()).rejects.toBeInstanceOf(JournalHoldLost);
    expect(await second.clock.load()).toEqual({ offsetMs: 0, frozenAtMs: 2_000 });
    const kept = await second.idempotency.reserve({ caller: 'key_1', key: 'k' }, 'f', 1, 60_000, { maxPerCaller: 10, pendingLeaseMs: 1_000 });
    expect(kept.kind).toBe('pending');
  });

  it('counts where a replica listens while it is recorded, and no longer once removed', async () => {
    const url = await server.createDatabase();
    const [holder, replica] = [await open(url), await open(url)];
    const recorded = await listenersOf(replica).record({ port: 4011, addresses: ['10.0.0.5', '127.0.0.1'] });
    expect(recorded.since).toBe(1);
    expect(await listenersOf(holder).live()).toEqual([{ port: 4011, addresses: ['10.0.0.5', '127.0.0.1'] }]);
    await recorded.removed();
    expect(await listenersOf(holder).live()).toEqual([]);
  });

  it('stops counting where a replica listens when its session ends, until it records itself again', async () => {
    const url = await server.createDatabase();
    const [holder, replica] = [await open(url), await open(url)];
    const recorded = await listenersOf(replica).record({ port: 4012, addresses: ['127.0.0.1'] });
    await endLockSessions(url);
    // The session ends (and its lock with it) as soon as the server has stopped its process.
    expect(await until(async () => (await listenersOf(holder).live()).length === 0)).toBe(true);
    // Told by its connection's error, it records itself again about a second later.
    expect(await until(async () => recorded.since === 2 && (await listenersOf(holder).live()).length === 1)).toBe(true);
    expect(await listenersOf(holder).live()).toEqual([{ port: 4012, addresses: ['127.0.0.1'] }]);
    await recorded.removed();
    expect(await listenersOf(holder).live()).toEqual([]);
  });
});
