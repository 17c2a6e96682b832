// Output paths that cannot be written, for each command that writes where a flag says: one line
// naming the flag, the path and the reason, and exit code 2 before any work is done (diff
// compares nothing, conformance sends no request, proxy does not listen); a write that fails later exits 1 naming the
// file. Never a stack trace.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binRunner, output } from '../support/bin-process.js';
import { repoRoot } from '../support/contracts.js';

const dir = mkdtempSync(join(tmpdir(), 'exchange-api-kit-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = binRunner(dir);
const aFile = join(dir, 'afile');
writeFileSync(aFile, 'not a folder\n');
const missingFolder = join(dir, 'nonexistent', 'x.json');
const contract = join(repoRoot, 'generated', 'exchange-v3', 'openapi.yaml');

async function refused(args: string[]): Promise<{ code: number | null; line: string; stdout: string }> {
  const { code, stdout, stderr } = await output(run(args));
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return { code, line: lines[0]!, stdout };
}

describe('an output path that cannot be written', () => {
  it.each<[string, string[], string]>([
    ['generate --out a file', ['generate', '--out', aFile], `exchange-api-kit generate: --out: cannot write ${aFile}: it is a file, not a folder`],
    ['scaffold --out a file', ['scaffold', '--out', aFile], `exchange-api-kit scaffold: --out: cannot write ${aFile}: it is a file, not a folder`],
    ['scaffold --out below a file', ['scaffold', '--out', join(aFile, 'server')], `exchange-api-kit scaffold: --out: cannot write ${join(aFile, 'server')}: ${aFile} is a file, not a folder`],
    ['diff --json in a missing folder', ['diff', contract, contract, '--json', missingFolder], `exchange-api-kit diff: --json: cannot write ${missingFolder}: there is no folder ${join(dir, 'nonexistent')}`],
    ['diff --json a folder', ['diff', contract, contract, '--json', dir], `exchange-api-kit diff: --json: cannot write ${dir}: it is a folder`],
    ['proxy --json in a missing folder', ['proxy', '--target', 'http://127.0.0.1:9', '--port', '0', '--json', missingFolder], `exchange-api-kit proxy: --json: cannot write ${missingFolder}: there is no folder ${join(dir, 'nonexistent')}`],
    ['proxy --record a file', ['proxy', '--target', 'http://127.0.0.1:9', '--port', '0', '--record', aFile], `exchange-api-kit proxy: --record: cannot write ${aFile}: it is a file, not a folder`],
  ])('%s: exit 2 and one line, before any work', async (_name, args, expected) => {
    const { code, line, stdout } = await refused(args);
    expect(line).toBe(expected);
    expect(code).toBe(2);
    expect(stdout).toBe('');
  });

  it('conformance --json in a missing folder: exit 2 before the run (port 9 would refuse every request)', async () => {
    const { code, line, stdout } = await refused(['conformance', '--base-url', 'http://127.0.0.1:9', '--junit', join(dir, 'ok.xml'), '--json', missingFolder]);
    expect(line).toBe(`conformance: --json: cannot write ${missingFolder}: there is no folder ${join(dir, 'nonexistent')}`);
    expect(code).toBe(2);
    expect(stdout).toBe('');
  });

  it('generate --out a folder with a file where a folder must go: exit 1 naming the file', async () => {
    const out = join(dir, 'blocked');
    mkdirSync(out);
    writeFileSync(join(out, 'exchange-v3'), 'in the way\n');
    const { code, line } = await refused(['generate', '--out', out]);
    expect(line).toMatch(new RegExp(`^exchange-api-kit generate: cannot write ${out}/exchange-v3/[\\w.-]+: (EEXIST|ENOTDIR)`));
    expect(code).toBe(1);
  });
});
