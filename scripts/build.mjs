// `npm run build` (also `prepare`, so `npm ci` runs it in a checkout, and `prepack`, so every
// packed copy has it) compiles the kit into dist/:
// - JavaScript: esbuild bundles the kit's own modules from the entries below into a few ES
//   modules (dist/index.js, dist/conformance.js, dist/cli.js and their shared chunks); the
//   installed dependencies stay imports, resolved by Node. One file per entry instead of ~200
//   starts the command in about two thirds of the time (test/bench/cold-start.ts).
// - Declarations: tsc, which also type-checks the sources (a type error fails the build), writes
//   .d.ts for everything the entries reach under dist/types/.
// The files the kit reads at run time (contracts/, generated/, the pages' assets) are not copied:
// compiled code finds them at the package root (kit-files.ts). The generator's JavaScript modules
// (ajv's standalone validators, the bundled contract documents) stay in generated/ too, imported
// through the package's "#generated/*" import map, so the package holds each of them once.
//
// dist/build.json names every source of the build; lib/launch.mjs runs a checkout's dist/ only
// while none of them is newer. With --if-stale a fresh dist/ is kept as it is (npm pack runs both
// prepack and prepare).
// Its progress lines go to stderr: npm prints a prepack's stdout into `npm pack --json`'s output,
// which must stay one JSON document for the tools that read it.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { freshBuild } from '../lib/launch.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist');
const typesDir = join(outDir, 'types');
/** Bundle name → source (tsconfig.build.json's files); package.json's "exports" and bin name the bundles. */
const entryPoints = { index: 'index.ts', conformance: 'conformance/index.ts', cli: 'cli/main.ts' };
/** The bundles programs import (package.json "exports"), whose declarations the package ships. */
const libraryEntries = ['index', 'conformance'];
/** Files that shape the build besides the sources: a change of any of them makes dist/ stale. */
const buildInputs = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs'];

if (process.argv.includes('--if-stale') && freshBuild()) {
  console.error('build: dist/ is up to date');
  process.exit(0);
}

// Taken before reading any source: a source saved during the build counts as newer than it.
const builtAtMs = Date.now();
rmSync(outDir, { recursive: true, force: true });
const declared = declarations();
const bundled = await bundle();
const sources = [...new Set([...declared, ...bundled, ...buildInputs])].sort();
writeFileSync(join(outDir, 'build.json'), `${JSON.stringify({ builtAtMs, sources }, null, 2)}\n`);
console.error(`build: dist/ from ${sources.length} sources in ${Date.now() - builtAtMs} ms`);

/** Type-checks the entries' program and writes its declarations; returns the sources it read. */
function declarations() {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => fail([diagnostic]) };
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.build.json'), {}, host);
  if (config.errors.length > 0) fail(config.errors);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  if (diagnostics.length > 0 || emitted.emitSkipped) fail(diagnostics);
  const read = program
    .getSourceFiles()
    .map((file) => relative(root, file.fileName).split('\\').join('/'))
    .filter((file) => !file.startsWith('node_modules/') && !file.startsWith('..'));
  // tsc emits no declarations for declarations it read: generated/'s .d.ts get re-exports.
  for (const declaration of read.filter((file) => file.endsWith('.d.ts'))) reexportDeclaration(declaration);
  keepPublicDeclarations(config.options);
  return read;
}

/**
 * tsc declares every module it compiled; a consumer's compiler reads only those the package's
 * entries reach through their types (about a sixth of them), so the others are removed.
 */
function keepPublicDeclarations(options) {
  const entries = readdirSync(typesDir, { recursive: true })
    .map((file) => join(typesDir, file))
    .filter((file) => file.endsWith('.d.ts'));
  const publicEntries = libraryEntries.map((name) => join(typesDir, entryPoints[name].replace(/\.ts$/, '.d.ts')));
  const reached = new Set(
    ts
      .createProgram({ rootNames: publicEntries, options: { ...options, noEmit: true } })
      .getSourceFiles()
      .map((file) => resolve(file.fileName)),
  );
  for (const file of entries) if (!reached.has(resolve(file))) rmSync(file);
  removeEmptyFolders(typesDir);
}

function removeEmptyFolders(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) removeEmptyFolders(join(dir, entry.name));
  if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
}

/** dist/types/<path>.d.ts re-exporting the declarations of <path>.js, which live beside it in generated/. */
function reexportDeclaration(declaration) {
  const at = join(typesDir, declaration);
  const target = relative(dirname(at), join(root, declaration.replace(/\.d\.ts$/, '.js'))).split('\\').join('/');
  const hasDefault = /^export default |^export \{[^}]*\bdefault\b/m.test(readFileSync(join(root, declaration), 'utf8'));
  mkdirSync(dirname(at), { recursive: true });
  writeFileSync(at, `export * from '${target}';\n${hasDefault ? `export { default } from '${target}';\n` : ''}`);
}

/** Bundles the entries; returns the sources it read. */
async function bundle() {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints,
    outdir: outDir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    metafile: true,
    plugins: [generatedModulesAsImports()],
    logLevel: 'warning',
  });
  return Object.keys(metafile.inputs).filter((input) => !input.includes('node_modules/'));
}

/** Imports of generated/'s JavaScript modules become `#generated/<path>` (package.json "imports"). */
function generatedModulesAsImports() {
  return {
    name: 'generated-modules-as-imports',
    setup(builder) {
      builder.onResolve({ filter: /\.js$/ }, ({ path, resolveDir }) => {
        const file = join(resolveDir, path);
        const inGenerated = relative(join(root, 'generated'), file);
        if (!path.startsWith('.') || inGenerated.startsWith('..') || !existsSync(file)) return undefined;
        return { path: `#generated/${inGenerated.split('\\').join('/')}`, external: true };
      });
    },
  };
}

function fail(diagnostics) {
  const formatHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost));
  rmSync(outDir, { recursive: true, force: true });
  process.exit(1);
}
