// Opens a sandbox database on a PostgreSQL server. A URL the driver cannot read is refused as not
// understood (a StoreOpenError: exit 2). An unreachable server fails with a message naming the
// URL without its password (the command line exits 1: the database may come back); a server that
// refuses the URL's user (a wrong password), has no such database, or does not let the user create
// the sandbox's tables, and a database holding tables of something else, or a sandbox schema newer
// than this kit's, are refused untouched (a StoreOpenError: exit 2: waiting does not change them). Migrations run under an advisory lock, so replicas
// starting together apply each one once.
import { StoreOpenError, StoreUnreachableError } from '../store-open-error.js';
import { migrations, sandboxFormat, schemaVersion } from './schema.js';
import { PostgresStore } from './postgres-store.js';
import { transactionOn } from './transaction.js';
import { withoutPassword } from './without-password.js';

/** The advisory lock key of the migrations (any constant shared by every replica). */
const migrationLock = 0x6b69_7473;

export async function openPostgresStore(url: string): Promise<PostgresStore> {
  const shown = withoutPassword(url);
  const pg = await loadDriver();
  refuseUnreadable(pg, url, shown);
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A connection that breaks while idle must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  // Nor one that breaks while checked out (a transaction, a replica's wait, the server stopping
  // under them): its query fails, which its caller hears; the error event the connection emits
  // after that, with no listener, would be thrown at the process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  try {
    await migrate(pool, shown);
    return new PostgresStore(pool, shown);
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (error instanceof StoreOpenError) throw error;
    if (refusedByServer(error)) throw new StoreOpenError(`cannot use ${shown} as a sandbox database: ${(error as Error).message}`);
    throw new StoreUnreachableError(`cannot reach the sandbox database ${shown}: ${(error as Error).message}`);
  }
}

/**
 * SQLSTATEs of a server that answered and said no for good: the user's login refused (class 28: a
 * wrong password, no such role), no such database (3D000), a privilege missing (42501: no CREATE
 * on the schema). The migrations' transactions roll back, so nothing is left half made.
 */
const refusedCodes = /^(28|3D000$|42501$)/;

function refusedByServer(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && refusedCodes.test(code);
}

/**
 * A URL the driver cannot read (a port out of range or not a number, a host that is not one) is
 * a spec not understood (exit 2), not a server out of reach: read it as the driver's clients do,
 * which a pool only does once it connects.
 */
function refuseUnreadable(pg: typeof import('pg').default, url: string, shown: string): void {
  try {
    new pg.Client({ connectionString: url });
  } catch (error) {
    throw new StoreOpenError(`${shown} is not understood: ${(error as Error).message}`);
  }
}

async function loadDriver(): Promise<typeof import('pg').default> {
  try {
    return (await import('pg')).default;
  } catch {
    throw new StoreOpenError('the postgres:// engine needs the package pg: npm install pg@8.23');
  }
}

async function migrate(pool: import('pg').Pool, shown: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [migrationLock]);
    const tables = (await client.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()")).rows.map((r) => r.name);
    let version = 0;
    if (tables.length > 0) {
      const meta = tables.includes('sandbox_meta') ? (await client.query<{ name: string; value: string }>("SELECT name, value FROM sandbox_meta WHERE name IN ('format', 'schema_version')")).rows : [];
      if (meta.find((r) => r.name === 'format')?.value !== sandboxFormat) throw new StoreOpenError(`${shown} is not a sandbox database (it holds tables of something else)`);
      version = Number(meta.find((r) => r.name === 'schema_version')?.value ?? 0);
      if (version > schemaVersion) throw new StoreOpenError(`${shown} has schema version ${version}, newer than this kit's ${schemaVersion}: use a newer exchange-api-kit`);
    }
    for (let n = version + 1; n <= schemaVersion; n += 1) {
      await transactionOn(client, async () => {
        await client.query(migrations[n - 1]!);
        await client.query("INSERT INTO sandbox_meta (name, value) VALUES ('schema_version', $1) ON CONFLICT (name) DO UPDATE SET value = excluded.value", [String(n)]);
      });
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [migrationLock]).catch(() => undefined);
    client.release();
  }
}
