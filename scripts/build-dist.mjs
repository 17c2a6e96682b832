// `npm run build` (also `prepare`, so `npm ci` / `npm install` run it): bundles the kit's command
// line and library entry into dist/ with esbuild (tsx's own dependency), so `npm start`, the
// `exchange-api-kit` bin and `import 'exchange-api-kit'` start in plain Node instead of compiling
// TypeScript through tsx's loader on every start (about 1 s of a 1.3 s start on a 2-core VM).
// dist/build.json names every source a bundle was built from; lib/launch.mjs runs dist/ only
// while none of them is newer than the build, and the TypeScript through tsx otherwise, so an
// edited source is never shadowed by a stale bundle.
import { build } from 'esbuild';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryPoints } from '../lib/launch.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist');

/**
 * Packages left to Node's own resolution: pino and pino-pretty are loaded only when logging is on
 * (and pino starts workers by file name), swagger-ui-dist is served as files from its folder,
 * tsx and esbuild are the fallback and this build; iconv-lite and mime-db are large tables that
 * Node loads faster itself (iconv-lite's on demand, mime-db as JSON): bundled, they made the
 * start about 50 ms slower.
 */
const external = ['pino', 'pino-pretty', 'swagger-ui-dist', 'tsx', 'esbuild', 'iconv-lite', 'mime-db'];

/**
 * The sources find their files (the contracts, generated/, the pages' assets) relative to
 * `import.meta.url`; in a bundle that is the bundle's URL, so each source's own is put back,
 * relative to dist/ (which keeps the folder relocatable).
 */
const ownModuleUrls = {
  name: 'own-module-urls',
  setup(builder) {
    builder.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
      if (args.path.includes(`${join('node_modules', '')}`)) return undefined;
      const fromDist = relative(outdir, args.path).split('\\').join('/');
      const text = readFileSync(args.path, 'utf8').replaceAll('import.meta.url', `new URL(${JSON.stringify(fromDist)}, import.meta.url).href`);
      return { contents: text, loader: 'ts' };
    });
  },
};

// Taken before reading any source: a source saved during the build counts as newer than it.
const builtAtMs = Date.now();
rmSync(outdir, { recursive: true, force: true });
const { metafile } = await build({
  absWorkingDir: root,
  entryPoints,
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // Bundled CommonJS packages (express, ajv) call require() for Node's built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  minifyWhitespace: true,
  metafile: true,
  plugins: [ownModuleUrls],
  logLevel: 'warning',
});

// Installed packages are bundled too: a change of them (npm install) makes the bundle stale.
const lockfiles = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json'].filter((file) => existsSync(join(root, file)));
const sources = Object.keys(metafile.inputs).filter((input) => !input.startsWith('node_modules/') && !input.includes('/node_modules/'));
writeFileSync(join(outdir, 'build.json'), `${JSON.stringify({ builtAtMs, sources: [...sources, ...lockfiles].sort() }, null, 2)}\n`);
console.log(`build: dist/ from ${sources.length} sources in ${Date.now() - builtAtMs} ms`);
