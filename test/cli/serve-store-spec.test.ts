// `exchange-api-kit serve --store SPEC` as a process, refusing a store before it serves anything:
// the message names where the spec was given (the flag, MOCK_STORE or a config file) and shows a
// PostgreSQL URL without its password, however it is given. A URL the driver cannot read exits 2
// as a spec not understood; a database out of reach exits 1.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binRunner, output } from '../support/bin-process.js';

const dir = mkdtempSync(join(tmpdir(), 'exchange-api-kit-store-spec-'));
const run = binRunner(dir);

describe('serve --store', () => {
  it('names an unreachable database without the password query parameter', async () => {
    const exit = await output(run(['serve', '--port', '0', '--store', 'postgres://kit@127.0.0.1:1/db?password=s3cret']));
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('--store postgres://kit@127.0.0.1:1/db?password=***: cannot reach the sandbox database postgres://kit@127.0.0.1:1/db?password=***');
    expect(exit.stdout + exit.stderr).not.toContain('s3cret');
  });

  it('names MOCK_STORE or the config file, not the flag, for a spec it does not understand', async () => {
    const fromEnv = await output(run(['serve', '--port', '0'], { MOCK_STORE: 'garbage' }));
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('serve: MOCK_STORE is not understood: use memory, sqlite:PATH or postgres://USER@HOST:PORT/DATABASE, got "garbage"');
    const config = join(dir, 'mock.yaml');
    writeFileSync(config, 'store: garbage\n');
    const fromFile = await output(run(['serve', '--port', '0', '--config', config]));
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toContain(`serve: "store" in ${config} is not understood: use memory, sqlite:PATH or postgres://USER@HOST:PORT/DATABASE, got "garbage"`);
  });

  it('exits 2 on a PostgreSQL URL with a port that is out of range or not a number, as a spec not understood', async () => {
    for (const port of ['99999', 'abc']) {
      const exit = await output(run(['serve', '--port', '0', '--store', `postgres://kit:s3cret@127.0.0.1:${port}/db`]));
      expect(exit.code).toBe(2);
      expect(exit.stderr).toContain(`--store postgres://kit:***@127.0.0.1:${port}/db: postgres://kit:***@127.0.0.1:${port}/db is not understood: Invalid URL`);
      expect(exit.stderr).not.toContain('cannot reach');
      expect(exit.stdout + exit.stderr).not.toContain('s3cret');
    }
  });

  it('names MOCK_STORE for a file that is not a sandbox database', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'not a database, just notes\n'.repeat(200));
    const exit = await output(run(['serve', '--port', '0'], { MOCK_STORE: `sqlite:${file}` }));
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain(`serve: MOCK_STORE sqlite:${file}: ${file} is not a sandbox database`);
  });
});
