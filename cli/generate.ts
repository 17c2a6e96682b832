// `exchange-api-kit generate`: the generator. In a checkout of the kit it is `npm run generate`
// (rewrites generated/ and docs/contracts.md's generated sections from contracts/). With --out it writes
// the kit's generated files (types, validators, routers, clients, machines, docs) into a directory
// of the integrator's project instead: the files of generated/, which `npm run generate -- --check`
// keeps equal to what the generator makes of the kit's contracts. So an installed copy, which ships
// generated/ but not the generator, writes the same bytes without the generator's dependencies.
// With --contracts DIR or --contract FILE it runs the generator on another copy of the contracts
// (a newer version): that needs the generator, so a checkout of the kit. Either way a file the
// generator no longer writes is removed from its own subfolders of the --out folder, never from
// beside them (generated-leftovers.ts), and --check names it.
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { filesIn, leftoverFiles } from '../generated-leftovers.js';
import { kitPath } from '../kit-files.js';
import { runScript } from './delegate.js';
import type { CommandIo } from './io.js';
import { helpOption, optionsHelp, readCommandFlags, type OptionSpec } from './options.js';
import { unwritableOutput, writeOutput } from '../output-path.js';

const generateOptions: OptionSpec[] = [
  { name: 'out', placeholder: '<dir>', help: "write the generated files under <dir> instead of the kit's generated/" },
  { name: 'contracts', placeholder: '<dir>', help: "generate from the contracts in <dir> (laid out like the kit's contracts/) instead of the kit's own; needs --out" },
  { name: 'contract', placeholder: '<file>', help: 'generate from this one OpenAPI contract; needs --out' },
  { name: 'check', boolean: true, help: 'write nothing; exit 1 naming the files that are out of date' },
  helpOption,
];

export const generateUsage = `usage: exchange-api-kit generate [options]
Generates types, validators, routers and typed clients from the kit's contracts (or another copy).

${optionsHelp(generateOptions)}

Exit codes: 0 done (or up to date), 1 stale files (--check), a contract that does not load or a
file that could not be written, 2 bad arguments (an --out that cannot be written among them).`;

export async function generateCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const read = readCommandFlags('generate', generateOptions, argv, generateUsage, io);
  if (typeof read === 'number') return read;
  const { values } = read;
  if (values.contracts !== undefined && values.contract !== undefined) {
    io.stderr(`exchange-api-kit generate: --contract contradicts --contracts: give one of them\n\n${generateUsage}`);
    return 2;
  }
  const check = values.check === true;
  const unwritable = check ? undefined : unwritableOutput([{ flag: '--out', path: values.out as string | undefined, kind: 'folder' }]);
  if (unwritable !== undefined) {
    io.stderr(`exchange-api-kit generate: ${unwritable}`);
    return 2;
  }
  const source = typeof values.contracts === 'string' ? ['--contracts', values.contracts] : typeof values.contract === 'string' ? ['--contract', values.contract] : [];
  if (source.length > 0) {
    // The generator checks the combination (--out is required) and names the file that does not load.
    const out = typeof values.out === 'string' ? ['--out', values.out] : [];
    return runScript('generator/cli.ts', [...source, ...out, ...(check ? ['--check'] : [])], 'generating from other contracts needs the generator');
  }
  if (typeof values.out !== 'string') return runScript('generator/cli.ts', check ? ['--check'] : [], 'generate without --out rewrites the kit\'s own generated/; give --out <dir>');
  return writeInto(resolve(values.out), check, io);
}

/**
 * Writes the kit's generated/ files into `outDir` (only those that differ) and removes the
 * generator's left-over files there; with `check`, writes nothing and exits 1 when any differs or
 * is left over. A file that cannot be written exits 1 naming it.
 */
export async function writeInto(outDir: string, check: boolean, io: CommandIo, command = 'generate'): Promise<number> {
  const generatedDir = kitPath('generated');
  const files = filesIn(generatedDir).map((path) => ({ path, contents: readFileSync(join(generatedDir, path), 'utf8') }));
  const current = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return null;
    }
  };
  const stale = files.filter((file) => current(join(outDir, file.path)) !== file.contents);
  const leftOver = leftoverFiles(outDir, files.map((file) => file.path), 'subfolders');
  if (check) {
    if (stale.length === 0 && leftOver.length === 0) return 0;
    const named = [...stale.map((f) => f.path), ...leftOver.map((path) => `${path} (not generated any more)`)];
    io.stderr(`generate --check: stale in ${outDir}:\n  ${named.join('\n  ')}`);
    return 1;
  }
  for (const file of stale) {
    const failed = writeOutput(join(outDir, file.path), file.contents, true);
    if (failed !== undefined) {
      io.stderr(`exchange-api-kit ${command}: ${failed}`);
      return 1;
    }
  }
  for (const path of leftOver) rmSync(join(outDir, path));
  io.stdout(`generate: ${files.length} files in ${outDir}, ${stale.length} changed${leftOver.length === 0 ? '' : `, ${leftOver.length} removed`}`);
  return 0;
}
