// Child process of the benchmarks: the mock as `npm start` serves it (no strict mode), on an
// ephemeral port, with the default key's rate limit and quotas lifted so a load test measures
// the pipeline, not 429s (the limiter and the usage ledger still run on every request).
// Usage: mock.ts [STORE] — a store spec (memory, sqlite:PATH, postgres://…; default memory).
// Prints one JSON line: { url, token, siteKey, siteSecret }. Started with an IPC channel and
// --expose-gc, it answers queries for its settled memory (heap-probe.ts).
import { startMockServer } from '../../../mock-server/server.js';
import { openStore } from '../../../mock-server/store/open-store.js';
import { answerSettledMemoryQueries } from './heap-probe.js';

const unlimited = Number.MAX_SAFE_INTEGER;
const store = await openStore(process.argv[2] ?? 'memory');
const server = await startMockServer({ port: 0, seed: 1, store });
server.sandbox.defaultKey.limits = { perMinute: unlimited, daily: unlimited, monthly: unlimited };
console.log(JSON.stringify({ url: server.url, token: server.token, siteKey: server.site.apiKey, siteSecret: server.site.apiSecret }));
process.once('SIGTERM', () => void server.close().then(() => store.close()).then(() => process.exit(0)));
answerSettledMemoryQueries();
