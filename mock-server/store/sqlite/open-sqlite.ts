// Opens (or creates) a sandbox database file. A file is checked before anything is written to it:
// one that is not SQLite, a SQLite database that is not a sandbox's, or a sandbox database of a
// newer schema is refused with a StoreOpenError and left as it was; so is a file another mock
// holds (sqlite-hold.ts), with JournalHeldElsewhere.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { StoreOpenError } from '../store-open-error.js';
import { migrations, sandboxFormat, schemaVersion } from './schema.js';
import { heldElsewhere, isBusy } from './sqlite-hold.js';
import { SqliteStore } from './sqlite-store.js';

type DatabaseConstructor = typeof import('better-sqlite3');

export async function openSqliteStore(path: string): Promise<SqliteStore> {
  const file = resolve(path);
  const Database = await loadDriver();
  const fresh = !existsSync(file) || statSync(file).size === 0;
  let db;
  try {
    // The check's reads do not wait: a sandbox file is in WAL mode, where a read waits only for a
    // mock holding the file, which keeps it until it stops. Everything after waits its turn.
    db = new Database(file, { timeout: 0 });
  } catch (error) {
    throw new StoreOpenError(`cannot open ${file}: ${(error as Error).message}`);
  }
  try {
    if (!fresh) checkSandboxFile(db, file);
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    migrate(db);
    return new SqliteStore(db, file);
  } catch (error) {
    db.close();
    if (isBusy(error)) throw heldElsewhere(file);
    // SQLite's own failures (a device, a file or folder it may not write): the file named, no trace.
    throw isSqliteError(error) ? new StoreOpenError(`cannot use ${file} as a sandbox database: ${error.message}`) : error;
  }
}

function isSqliteError(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('SQLITE_');
}

async function loadDriver(): Promise<DatabaseConstructor> {
  try {
    return (await import('better-sqlite3')).default;
  } catch {
    throw new StoreOpenError('the sqlite: engine needs the package better-sqlite3: npm install better-sqlite3@12.11');
  }
}

function checkSandboxFile(db: import('better-sqlite3').Database, file: string): void {
  let version: number;
  let format: string | undefined;
  try {
    version = db.pragma('user_version', { simple: true }) as number;
    const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sandbox_meta'").get() !== undefined;
    format = hasMeta ? (db.prepare("SELECT value FROM sandbox_meta WHERE name = 'format'").get() as { value: string } | undefined)?.value : undefined;
  } catch (error) {
    if (isBusy(error) || !isSqliteError(error)) throw error;
    // Only SQLite's own verdict says the file is not a database; a file it cannot read (a folder
    // it may not write its WAL index in) is a file it cannot use, said so below.
    if (error.code === 'SQLITE_NOTADB') throw new StoreOpenError(`${file} is not a sandbox database (not an SQLite file)`);
    throw error;
  }
  const empty = version === 0 && db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table'").get() === undefined;
  if (empty) return;
  if (format !== sandboxFormat) throw new StoreOpenError(`${file} is not a sandbox database (an SQLite file of something else)`);
  if (version > schemaVersion) throw new StoreOpenError(`${file} has schema version ${version}, newer than this kit's ${schemaVersion}: use a newer exchange-api-kit`);
}

function migrate(db: import('better-sqlite3').Database): void {
  const apply = db.transaction(() => {
    const from = db.pragma('user_version', { simple: true }) as number;
    for (let n = from + 1; n <= schemaVersion; n += 1) {
      db.exec(migrations[n - 1]!);
      db.pragma(`user_version = ${n}`);
    }
  });
  apply.immediate();
}
