// The files a generate run into a folder finds there but no longer writes (a file of an older
// version, or one a renamed operation left behind), so that generate removes them and --check
// reports them. In a folder of the user's project (--out DIR) only the generator's own subfolders
// (runtime/, one per contract, docs/: those holding a file it writes now) are searched: the
// generator owns what is in them, and files beside them in DIR are the project's own. A
// subfolder it does not write this time (a contract left out by --contract) is not touched.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `dir` (recursively) as a path relative to it with `/`, sorted; none when it does not exist. */
export function filesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

/**
 * The files under `outDir` not among `written` (paths relative to it, with `/`): in all of it
 * when the generator owns the whole folder (the kit's generated/), else in the subfolders of
 * `written` only.
 */
export function leftoverFiles(outDir: string, written: readonly string[], owner: 'folder' | 'subfolders'): string[] {
  const wanted = new Set(written);
  const searched = owner === 'folder' ? [''] : [...new Set(written.filter((path) => path.includes('/')).map((path) => `${path.split('/')[0]}/`))];
  return searched.flatMap((folder) => filesIn(join(outDir, folder)).map((path) => `${folder}${path}`)).filter((path) => !wanted.has(path));
}
