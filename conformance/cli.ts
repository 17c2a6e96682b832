// `npm run conformance -- --base-url URL …` (see conformance/cli-args.ts for the flags).
import { runConformanceCli } from './cli-main.js';

process.exitCode = await runConformanceCli(process.argv.slice(2));
