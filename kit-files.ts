// Where the kit's own files are (contracts/, generated/, the pages' assets, package.json): the
// package's root folder, the nearest one up from this module that holds package.json. Code runs
// from its TypeScript sources in a checkout (this file is in that root) or compiled, from a
// bundle in dist/; those files are never copied into dist/, so both read the same ones.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let rootUrl: URL | undefined;

function kitRootUrl(): URL {
  if (rootUrl === undefined) {
    let folder = new URL('./', import.meta.url);
    while (!existsSync(new URL('package.json', folder)) && folder.pathname !== '/') folder = new URL('../', folder);
    rootUrl = folder;
  }
  return rootUrl;
}

/** The absolute path of `relativePath` ('contracts/', 'generated/deposit-v1/openapi.yaml') in the kit. */
export function kitPath(relativePath: string): string {
  return fileURLToPath(new URL(relativePath, kitRootUrl()));
}
