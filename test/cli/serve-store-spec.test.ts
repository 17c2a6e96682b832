// `exchange-api-kit serve --store SPEC` as a process, refusing a spec before it serves anything:
// the message shows a PostgreSQL URL without its password, however it is given.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binRunner, output } from '../support/bin-process.js';

const run = binRunner(mkdtempSync(join(tmpdir(), 'exchange-api-kit-store-spec-')));

describe('serve --store', () => {
  it('names an unreachable database without the password query parameter', async () => {
    const exit = await output(run(['serve', '--port', '0', '--store', 'postgres://kit@127.0.0.1:1/db?password=s3cret']));
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('--store postgres://kit@127.0.0.1:1/db?password=***: cannot reach the sandbox database postgres://kit@127.0.0.1:1/db?password=***');
    expect(exit.stdout + exit.stderr).not.toContain('s3cret');
  });
});
