// openStore's failures are the library's documented errors, exported so a caller can tell them
// apart: StoreOpenError for a store it will not use (retrying changes nothing), and
// StoreUnreachableError for a database server out of reach (it may come back).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openStore, StoreOpenError, StoreUnreachableError } from 'exchange-api-kit';

it('rejects a file that is not a sandbox database with StoreOpenError, naming the file', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'exchange-api-kit-open-')), 'notes.txt');
  writeFileSync(file, 'not a database, just notes\n'.repeat(200));
  const refused = await openStore(`sqlite:${file}`).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(StoreOpenError);
  expect((refused as Error).message).toBe(`${file} is not a sandbox database (not an SQLite file)`);
});

it('rejects a PostgreSQL server it cannot reach with StoreUnreachableError, the password left out', async () => {
  const refused = await openStore('postgres://kit:s3cret@127.0.0.1:1/sandbox').catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(StoreUnreachableError);
  expect((refused as Error).message).toMatch(/^cannot reach the sandbox database postgres:\/\/kit:\*\*\*@127\.0\.0\.1:1\/sandbox: /);
});
