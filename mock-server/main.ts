// `npm start`: `exchange-api-kit serve` with the same flags, environment variables and config
// file (cli/serve.ts); prints the URL and ready-to-use credentials.
import { processIo } from '../cli/io.js';
import { serve } from '../cli/serve.js';

process.exit(await serve(process.argv.slice(2), processIo));
