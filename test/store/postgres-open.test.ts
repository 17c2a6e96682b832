// Opening a sandbox database on a real PostgreSQL server: replicas starting together migrate
// once; an unreachable server fails naming the URL without its password (the user's or the
// `password` query parameter), which an open store's location leaves out too; a URL the driver
// cannot read is not understood; a database of something else or of a newer schema is refused
// and left as it was; so are a database that does not exist and a user who may not create the
// sandbox's tables (a configuration to fix, not a server to wait for).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../mock-server/store/open-store.js';
import { schemaVersion } from '../../mock-server/store/postgres/schema.js';
import { StoreOpenError, StoreUnreachableError } from '../../mock-server/store/store-open-error.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { engines } from './support/engines.js';

const hasPostgres = engines.some((make) => make().name === 'postgres');

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe.runIf(hasPostgres)('postgres:// databases', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server.stop());

  it('migrate once when several replicas open a new database at the same time', async () => {
    const url = await server.createDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => openStore(url)));
    const [version] = await query<{ value: string }>(url, "SELECT value FROM sandbox_meta WHERE name = 'schema_version'");
    expect(Number(version?.value)).toBe(schemaVersion);
    await stores[0]!.cells<number>('key-meters').update('k', 0, () => ({ value: 1, expiresAtMs: 10, result: undefined }));
    expect(await stores[3]!.cells<number>('key-meters').get('k', 0)).toBe(1);
    for (const store of stores) await store.close();
  });

  it('fail on an unreachable server, naming the URL without its password', async () => {
    const error = await openStore('postgres://kit:s3cret-password@127.0.0.1:1/nowhere').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnreachableError);
    expect((error as Error).message).toContain('postgres://kit:***@127.0.0.1:1/nowhere');
    expect((error as Error).message).not.toContain('s3cret-password');
  });

  it('name the URL without a password given as its query parameter, when unreachable and once open', async () => {
    const error = await openStore('postgres://kit@127.0.0.1:1/nowhere?password=s3cret-password&sslmode=disable').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnreachableError);
    expect((error as Error).message).toContain('postgres://kit@127.0.0.1:1/nowhere?password=***&sslmode=disable');
    expect((error as Error).message).not.toContain('s3cret-password');
    // The server trusts its local users, so it takes the password and ignores it.
    const url = await server.createDatabase();
    const store = await openStore(`${url}?password=s3cret-password`);
    expect(store.location).toBe(`${url}?password=***`);
    await store.close();
  });

  it('refuse a URL the driver cannot read as not understood, not as unreachable, without its password', async () => {
    for (const url of ['postgres://kit:s3cret-password@127.0.0.1:99999/db', 'postgres://kit:s3cret-password@127.0.0.1:abc/db']) {
      const error = await openStore(url).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreOpenError);
      expect((error as Error).message).toMatch(/^postgres:\/\/kit:\*\*\*@127\.0\.0\.1:\w+\/db is not understood: Invalid URL$/);
    }
  });

  it('refuse the database of another program and a newer sandbox schema, leaving them as they were', async () => {
    const other = await server.createDatabase();
    await query(other, "CREATE TABLE invoices (id serial PRIMARY KEY, total text); INSERT INTO invoices (total) VALUES ('12.50')");
    const refused = await openStore(other).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreOpenError);
    expect((refused as Error).message).toContain('is not a sandbox database');
    expect(await query(other, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")).toEqual([{ table_name: 'invoices' }]);

    const newer = await server.createDatabase();
    await (await openStore(newer)).close();
    await query(newer, `UPDATE sandbox_meta SET value = '${schemaVersion + 1}' WHERE name = 'schema_version'`);
    const tooNew = await openStore(newer).catch((e: unknown) => e);
    expect(tooNew).toBeInstanceOf(StoreOpenError);
    expect((tooNew as Error).message).toMatch(/newer than this kit's/);
  });

  it('refuse a database that does not exist and a user without CREATE rights as unusable, not unreachable, creating nothing', async () => {
    const url = await server.createDatabase();
    const missing = url.replace(/\/kit_\d+$/, '/no_such_database');
    const absent = await openStore(missing).catch((e: unknown) => e);
    expect(absent).toBeInstanceOf(StoreOpenError);
    expect((absent as Error).message).toBe(`cannot use ${missing} as a sandbox database: database "no_such_database" does not exist`);

    await query(url, 'CREATE ROLE reader LOGIN; REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    const asReader = url.replace('postgres://kit@', 'postgres://reader@');
    const denied = await openStore(asReader).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(StoreOpenError);
    expect((denied as Error).message).toBe(`cannot use ${asReader} as a sandbox database: permission denied for schema public`);
    expect(await query(url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")).toEqual([]);
  });
});
