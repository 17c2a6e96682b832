// Opening a sandbox database: a new file gets the schema; a file that is not SQLite, a SQLite
// database of something else, or a sandbox database of a newer schema is refused with a message
// naming it and is left byte for byte as it was; an engine spec that is not understood names the
// flag. A restart on the same file resumes the virtual clock. A file whose journal a store holds
// cannot be opened or held by another store until the holder closes (the process test, with
// kill -9, is test/durable/serve-store.test.ts).
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../mock-server/server.js';
import { openStore } from '../../mock-server/store/open-store.js';
import { JournalHeldElsewhere } from '../../mock-server/store/record-journal.js';
import { schemaVersion } from '../../mock-server/store/sqlite/schema.js';
import { StoreOpenError } from '../../mock-server/store/store-open-error.js';

const folder = mkdtempSync(join(tmpdir(), 'kit-sqlite-file-'));
const file = (name: string) => join(folder, name);
const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

async function refusal(spec: string): Promise<StoreOpenError> {
  const error = await openStore(spec).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(StoreOpenError);
  return error as StoreOpenError;
}

describe('sqlite: files', () => {
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('refuse a file that is not SQLite, and leave it untouched', async () => {
    const path = file('notes.txt');
    writeFileSync(path, 'these are my notes, not a database\n'.repeat(200));
    const before = digest(path);
    expect((await refusal(`sqlite:${path}`)).message).toContain(`${path} is not a sandbox database`);
    expect(digest(path)).toBe(before);
  });

  it('refuse the SQLite database of another program, and leave it untouched', async () => {
    const path = file('other.db');
    const other = new Database(path);
    other.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total TEXT); INSERT INTO invoices (total) VALUES ('12.50');");
    other.close();
    const before = digest(path);
    expect((await refusal(`sqlite:${path}`)).message).toContain(`${path} is not a sandbox database`);
    expect(digest(path)).toBe(before);
  });

  it('refuse a sandbox database of a newer schema, and leave it untouched', async () => {
    const path = file('newer.db');
    (await openStore(`sqlite:${path}`)).close();
    const newer = new Database(path);
    newer.pragma(`user_version = ${schemaVersion + 1}`);
    newer.close();
    const before = digest(path);
    expect((await refusal(`sqlite:${path}`)).message).toMatch(new RegExp(`schema version ${schemaVersion + 1}, newer than this kit's ${schemaVersion}`));
    expect(digest(path)).toBe(before);
  });

  it('refuse a path SQLite cannot keep a database at, naming it', async () => {
    // A device: SQLite opens it, then cannot write its journal there (once a crash with a trace).
    expect((await refusal('sqlite:/dev/null')).message).toMatch(/^cannot use \/dev\/null as a sandbox database: /);
  });

  it('name the flag when the engine spec is not understood', async () => {
    for (const spec of ['', 'sqlite:', 'mongodb://localhost/x', 'Memory']) {
      expect((await refusal(spec)).message).toMatch(/^--store .* is not understood: use memory, sqlite:PATH or postgres:/);
    }
  });

  it('create a new file with the current schema, and open it again', async () => {
    const path = file('fresh.db');
    const store = await openStore(`sqlite:${path}`);
    expect(store.engine).toBe('sqlite');
    await store.close();
    const reopened = await openStore(`sqlite:${path}`);
    await reopened.close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(schemaVersion);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('resume the virtual clock after a restart on the same file', async () => {
    const path = file('clock.db');
    const first = await startMockServer({ store: await openStore(`sqlite:${path}`) });
    await fetch(`${first.url}/__mock/clock/freeze`, { method: 'POST' });
    await fetch(`${first.url}/__mock/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: 86_400 }) });
    const frozenAt = first.sandbox.clock.nowMs();
    await first.close();
    await first.sandbox.store.close();

    const second = await startMockServer({ store: await openStore(`sqlite:${path}`) });
    const clock = (await (await fetch(`${second.url}/__mock/clock`)).json()) as { result: { now: string; frozen: boolean } };
    expect(clock.result.frozen).toBe(true);
    expect(Date.parse(clock.result.now)).toBe(frozenAt);
    await second.close();
    await second.sandbox.store.close();
  });

  it('refuse a file another store holds, naming it and leaving it untouched, until that store closes', async () => {
    const path = file('held.db');
    const holder = await openStore(`sqlite:${path}`);
    await holder.journal!.hold();
    const before = [digest(path), digest(`${path}-wal`)];
    const refused = await refusal(`sqlite:${path}`);
    expect(refused).toBeInstanceOf(JournalHeldElsewhere);
    expect(refused.message).toBe(`another mock holds the sandbox of ${path}: one process per file; stop it, or use another file`);
    expect([digest(path), digest(`${path}-wal`)]).toEqual(before);
    await holder.close();
    const next = await openStore(`sqlite:${path}`);
    await next.journal!.hold();
    await next.close();
  });
});
