#!/usr/bin/env node
// The `exchange-api-kit` command. The kit ships its TypeScript sources; tsx's loader runs them.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exit(await main(process.argv.slice(2)));
