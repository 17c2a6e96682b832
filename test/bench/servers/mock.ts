// Child process of the benchmarks: the mock as `npm start` serves it (no strict mode), on an
// ephemeral port, with the default key's rate limit and quotas lifted so a load test measures
// the pipeline, not 429s (the limiter and the usage ledger still run on every request).
// Prints one JSON line: { url, token }.
import { startMockServer } from '../../../mock-server/server.js';

const unlimited = Number.MAX_SAFE_INTEGER;
const server = await startMockServer({ port: 0, seed: 1 });
server.sandbox.defaultKey.limits = { perMinute: unlimited, daily: unlimited, monthly: unlimited };
console.log(JSON.stringify({ url: server.url, token: server.token }));
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
