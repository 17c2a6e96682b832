// `exchange-api-kit scaffold --out DIR`: a runnable starter server on the generated routers.
// The generated code goes to DIR/src/generated (as `generate --out` writes it; rerun that to
// refresh it); the starter's own files (handlers, app, package.json) are written only where
// they do not exist yet, so a second run never overwrites your code.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeInto } from './generate.js';
import type { CommandIo } from './io.js';
import { helpOption, optionsHelp, readCommandFlags, type OptionSpec } from './options.js';
import { unwritableOutput, writeOutput } from '../output-path.js';
import { starterFiles } from './scaffold/starter-files.js';

const scaffoldOptions: OptionSpec[] = [
  { name: 'out', placeholder: '<dir>', help: 'the folder of the new server project (required)' },
  helpOption,
];

export const scaffoldUsage = `usage: exchange-api-kit scaffold --out <dir>
Writes a starter server for the exchange API v3 and the deposit API v1: the generated code in
<dir>/src/generated, one handler file per contract tag (every operation answers 501 until you
implement it), the express app, package.json and a strict tsconfig. Existing files are kept.

${optionsHelp(scaffoldOptions)}

Exit codes: 0 done, 1 a file that could not be written, 2 bad arguments (an --out that cannot be
written among them).`;

export async function scaffoldCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const read = readCommandFlags('scaffold', scaffoldOptions, argv, scaffoldUsage, io);
  if (typeof read === 'number') return read;
  const { values } = read;
  if (typeof values.out !== 'string') {
    io.stderr(`exchange-api-kit scaffold: --out <dir> is required\n\n${scaffoldUsage}`);
    return 2;
  }
  const unwritable = unwritableOutput([{ flag: '--out', path: values.out, kind: 'folder' }]);
  if (unwritable !== undefined) {
    io.stderr(`exchange-api-kit scaffold: ${unwritable}`);
    return 2;
  }
  const outDir = resolve(values.out);
  const generated = await writeInto(join(outDir, 'src', 'generated'), false, io, 'scaffold');
  if (generated !== 0) return generated;
  const kept: string[] = [];
  for (const file of starterFiles()) {
    const target = join(outDir, file.path);
    if (existsSync(target)) {
      kept.push(file.path);
      continue;
    }
    const failed = writeOutput(target, file.contents, true);
    if (failed !== undefined) {
      io.stderr(`exchange-api-kit scaffold: ${failed}`);
      return 1;
    }
  }
  io.stdout(`scaffold: starter server in ${outDir}${kept.length > 0 ? ` (kept ${kept.length} existing files)` : ''}; npm install && npm start`);
  return 0;
}
