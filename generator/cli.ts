// `npm run generate` writes generated/ (and docs/contracts.md's generated sections) from contracts/;
// `npm run generate -- --check` writes nothing and exits 1, naming the stale files, when
// generated/ or that page is out of date. `--contracts DIR` (a folder laid out like contracts/,
// e.g. a newer copy) or `--contract FILE` (one contract) with `--out DIR` generates from another
// copy of the contracts into DIR instead, leaving the kit's own files alone. Files the generator
// no longer writes are removed (and named by --check): anywhere in generated/, in DIR only inside
// its own subfolders (generated-leftovers.ts). A contract that does not load exits 1 with the
// file, the JSON pointer and the reason. This is the only module that writes files.
import { readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { contractsPagePath, generate, type ContractSource } from './generate.js';
import { ContractError } from './load.js';
import { leftoverFiles } from '../generated-leftovers.js';
import { unwritableOutput, writeOutput } from '../output-path.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const usage = 'usage: npm run generate [-- [--check] [--contracts DIR | --contract FILE] [--out DIR]]';

interface Arguments {
  check: boolean;
  source: ContractSource | undefined;
  /** undefined: the kit's own generated/ and docs/contracts.md. */
  out: string | undefined;
}

function readArguments(argv: string[]): Arguments | string {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { check: { type: 'boolean' }, contracts: { type: 'string' }, contract: { type: 'string' }, out: { type: 'string' } },
    }));
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (values.contracts !== undefined && values.contract !== undefined) return '--contracts and --contract exclude each other';
  const source = values.contracts !== undefined ? { dir: resolve(values.contracts) } : values.contract !== undefined ? { file: resolve(values.contract) } : undefined;
  // Another copy of the contracts must not overwrite what the kit generates from its own.
  if (source !== undefined && values.out === undefined) return '--contracts and --contract need --out DIR';
  const missing = source === undefined ? undefined : 'dir' in source ? source.dir : source.file;
  if (missing !== undefined && !existsSync(missing)) return `${missing} does not exist`;
  // Told before generating, not as a stack trace once the work is done (--check writes nothing).
  const unwritable = values.check === true ? undefined : unwritableOutput([{ flag: '--out', path: values.out, kind: 'folder' }]);
  if (unwritable !== undefined) return unwritable;
  return { check: values.check === true, source, out: values.out === undefined ? undefined : resolve(values.out) };
}

async function main(argv: string[]): Promise<number> {
  const args = readArguments(argv);
  if (typeof args === 'string') {
    console.error(`generate: ${args} (${usage})`);
    return 2;
  }
  const ownFiles = args.out === undefined;
  const outDir = args.out ?? join(repoRoot, 'generated');
  const outName = ownFiles ? 'generated' : relative(process.cwd(), outDir) || '.';
  const pagePath = join(repoRoot, contractsPagePath);
  const started = performance.now();
  const { files, contractsPage } = await generate(repoRoot, args.source);
  const leftOver = leftoverFiles(outDir, files.map((f) => f.path), ownFiles ? 'folder' : 'subfolders');

  const stale = [
    ...files.filter((f) => readOrNull(join(outDir, f.path)) !== f.contents).map((f) => `${outName}/${f.path}`),
    ...leftOver.map((path) => `${outName}/${path} (not generated any more)`),
    ...(!ownFiles || readOrNull(pagePath) === contractsPage ? [] : [`${contractsPagePath} (generated sections)`]),
  ];
  const ms = Math.round(performance.now() - started);

  if (args.check) {
    if (stale.length === 0) {
      console.log(`generate --check: ${outName}/ is up to date (${files.length} files, ${ms} ms)`);
      return 0;
    }
    console.error(`generate --check: stale, run ${rerun(argv)}:\n  ${stale.join('\n  ')}`);
    return 1;
  }
  for (const path of leftOver) rmSync(join(outDir, path));
  for (const file of files) {
    const target = join(outDir, file.path);
    const failed = readOrNull(target) === file.contents ? undefined : writeOutput(target, file.contents, true);
    if (failed !== undefined) {
      console.error(`generate: ${failed}`);
      return 1;
    }
  }
  if (ownFiles && readOrNull(pagePath) !== contractsPage) writeFileSync(pagePath, contractsPage);
  console.log(`generate: ${files.length} files in ${outName}/, ${stale.length} changed (${ms} ms)`);
  return 0;
}

/**
 * The command that brings the files --check found stale up to date: the same arguments without
 * --check. A bare `npm run generate` would rewrite the kit's own generated/, not an --out DIR.
 */
function rerun(argv: string[]): string {
  const args = argv.filter((arg) => arg !== '--check').map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg)));
  return args.length === 0 ? 'npm run generate' : `npm run generate -- ${args.join(' ')}`;
}

function readOrNull(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ContractError) {
      console.error(`generate: ${error.file}#${error.pointer}: ${error.reason}`);
    } else {
      console.error('generate: failed:', error instanceof Error ? error.stack ?? error.message : error);
    }
    process.exit(1);
  },
);
