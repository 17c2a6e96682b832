// `npm run generate` writes generated/ (and docs/contracts.md's generated sections) from contracts/;
// `npm run generate -- --check` writes nothing and exits 1, naming the stale files, when
// generated/ or that page is out of date. A contract that does not load exits 1 with the
// file, the JSON pointer and the reason. This is the only module that writes files.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractsPagePath, generate } from './generate.js';
import { ContractError } from './load.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const generatedDir = join(repoRoot, 'generated');
const pagePath = join(repoRoot, contractsPagePath);

async function main(argv: string[]): Promise<number> {
  const check = argv.includes('--check');
  const unknown = argv.filter((arg) => arg !== '--check');
  if (unknown.length > 0) {
    console.error(`generate: unknown argument ${unknown.join(' ')} (usage: npm run generate [-- --check])`);
    return 2;
  }
  const started = performance.now();
  const { files, contractsPage } = await generate(repoRoot);
  const wanted = new Map(files.map((f) => [f.path, f.contents]));
  const existing = existsSync(generatedDir) ? listFiles(generatedDir) : [];

  const stale = [
    ...files.filter((f) => readOrNull(join(generatedDir, f.path)) !== f.contents).map((f) => `generated/${f.path}`),
    ...existing.filter((path) => !wanted.has(path)).map((path) => `generated/${path} (not generated any more)`),
    ...(readOrNull(pagePath) === contractsPage ? [] : [`${contractsPagePath} (generated sections)`]),
  ];
  const ms = Math.round(performance.now() - started);

  if (check) {
    if (stale.length === 0) {
      console.log(`generate --check: generated/ is up to date (${files.length} files, ${ms} ms)`);
      return 0;
    }
    console.error(`generate --check: stale, run npm run generate:\n  ${stale.join('\n  ')}`);
    return 1;
  }
  for (const path of existing.filter((p) => !wanted.has(p))) rmSync(join(generatedDir, path));
  for (const file of files) {
    const target = join(generatedDir, file.path);
    mkdirSync(dirname(target), { recursive: true });
    if (readOrNull(target) !== file.contents) writeFileSync(target, file.contents);
  }
  if (readOrNull(pagePath) !== contractsPage) writeFileSync(pagePath, contractsPage);
  console.log(`generate: ${files.length} files in generated/, ${stale.length} changed (${ms} ms)`);
  return 0;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
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
