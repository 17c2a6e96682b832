// Ends the PostgreSQL session that holds a shared sandbox's lock, as a network cut or a DBA
// would: the holder loses its hold, and a replica waiting on the lock takes the sandbox over.
import pg from 'pg';

/** The journal's advisory lock key (mock-server/store/postgres/postgres-journal.ts). */
const holderLock = 0x6b69_746a;

export async function endHolderSession(url: string): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  await client.query("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = $1", [holderLock]);
  await client.end();
}
