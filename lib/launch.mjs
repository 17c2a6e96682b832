// How the `exchange-api-kit` command loads the kit. An installed package has only its compiled
// JavaScript (dist/, which scripts/build.mjs writes when the package is packed) and runs it. A
// checkout also has the TypeScript sources: it runs dist/ while dist/build.json says dist/ was
// built from them as they are now (`npm ci` builds it, `npm run build` rebuilds it), and the
// sources through tsx (a devDependency) otherwise, so an edited source is never shadowed by a
// stale build. A stale or missing build costs start-up time, never behaviour.
import { existsSync, readFileSync, statSync } from 'node:fs';

const kitRoot = new URL('../', import.meta.url);

/** Whether this is a checkout of the kit (its sources are here), not an installed copy. */
export function isCheckout() {
  return existsSync(new URL('cli/main.ts', kitRoot));
}

/** Whether dist/ holds a build whose every source is still there and no newer than the build. */
export function freshBuild() {
  try {
    const build = JSON.parse(readFileSync(new URL('dist/build.json', kitRoot), 'utf8'));
    return build.sources.every((source) => statSync(new URL(source, kitRoot)).mtimeMs <= build.builtAtMs);
  } catch {
    return false; // no build, or a source gone
  }
}

/** The command line's module (cli/main): compiled when it may be, else the source through tsx. */
export async function importCli() {
  if (!isCheckout() || freshBuild()) return import(new URL('dist/cli.js', kitRoot).href);
  const { register } = await import('tsx/esm/api');
  register();
  return import(new URL('cli/main.ts', kitRoot).href);
}
