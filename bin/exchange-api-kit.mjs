#!/usr/bin/env node
// The `exchange-api-kit` command (and `npm start`): the bundle in dist/ when it is fresh
// (lib/launch.mjs), else the TypeScript sources through tsx's loader.
import { importEntry } from '../lib/launch.mjs';

const { main } = await importEntry('cli', async () => {
  const { register } = await import('tsx/esm/api');
  register();
  return import('../cli/main.ts');
});
process.exit(await main(process.argv.slice(2)));
