// A real PostgreSQL server (postgres-server.ts) for the suite it is called in: started before its
// tests, stopped after them.
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type PostgresServer } from './postgres-server.js';

/** Call inside a describe; the function gives the server once the suite's tests run. */
export function suitePostgres(): () => PostgresServer {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.stop());
  return () => server!;
}
