#!/usr/bin/env node
// The `exchange-api-kit` command (and `npm start`): the compiled kit, or in a checkout whose
// dist/ is stale the TypeScript sources (lib/launch.mjs).
import { importCli } from '../lib/launch.mjs';

importCli()
  .then(({ main }) => main(process.argv.slice(2)))
  .then((code) => process.exit(code));
