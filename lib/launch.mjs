// Loads one of the kit's entry points: the bundle scripts/build-dist.mjs wrote to dist/ when it
// was built from the sources as they are now, else the TypeScript source (the caller's fallback,
// through tsx). dist/ is an optimisation only (a start in plain Node skips compiling TypeScript
// at run time); a missing or stale bundle costs time, never behaviour.
import { readFileSync, statSync } from 'node:fs';

/** What dist/<name>.mjs bundles. */
export const entryPoints = { cli: 'cli/main.ts', index: 'index.ts' };

const kitRoot = new URL('../', import.meta.url);

/** Whether dist/ holds a build whose every source is still there and no newer than the build. */
function freshBuild() {
  try {
    const build = JSON.parse(readFileSync(new URL('dist/build.json', kitRoot), 'utf8'));
    return build.sources.every((source) => statSync(new URL(source, kitRoot)).mtimeMs <= build.builtAtMs);
  } catch {
    return false; // no build, or a source gone
  }
}

/** The module namespace of entry point `name`: the bundle if fresh, else what `loadSource` loads. */
export function importEntry(name, loadSource) {
  return freshBuild() ? import(new URL(`dist/${name}.mjs`, kitRoot).href) : loadSource();
}
