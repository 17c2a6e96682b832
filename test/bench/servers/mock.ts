// Child process of the benchmarks: the mock as `npm start` serves it (no strict mode), on an
// ephemeral port, with the default key's rate limit and quotas lifted so a load test measures
// the pipeline, not 429s (the limiter and the usage ledger still run on every request).
// Like `npm start` (lib/launch.mjs), it runs the compiled kit (dist/) while that build is fresh,
// and the TypeScript sources otherwise: tsx's transform keeps function names, which costs every
// named closure a call, so a stale build measures about 8 % more CPU on the ping than users get.
// Usage: mock.ts [STORE] — a store spec (memory, sqlite:PATH, postgres://…; default memory).
// Prints one JSON line: { url, token, siteKey, siteSecret, compiled }. Started with an IPC channel
// and --expose-gc, it answers queries for its settled memory (heap-probe.ts).
import { freshBuild } from '../../../lib/launch.mjs';
import { answerSettledMemoryQueries } from './heap-probe.js';
import { keepHeldAnswersYoung } from '../../../cli/held-answers-gc.js';

type Kit = typeof import('../../../index.js');
const compiledEntry = '../../../dist/index.js'; // a specifier tsc does not follow: dist/ may not exist
const compiled = freshBuild();
const { openStore, startMockServer } = (compiled ? await import(compiledEntry) : await import('../../../index.js')) as Kit;

const unlimited = Number.MAX_SAFE_INTEGER;
const store = await openStore(process.argv[2] ?? 'memory');
keepHeldAnswersYoung(store); // as `serve` does (cli/held-answers-gc.ts)
const server = await startMockServer({ port: 0, seed: 1, store });
server.sandbox.defaultKey.limits = { perMinute: unlimited, daily: unlimited, monthly: unlimited };
console.log(JSON.stringify({ url: server.url, token: server.token, siteKey: server.site.apiKey, siteSecret: server.site.apiSecret, compiled }));
process.once('SIGTERM', () => void server.close().then(() => store.close()).then(() => process.exit(0)));
answerSettledMemoryQueries();
