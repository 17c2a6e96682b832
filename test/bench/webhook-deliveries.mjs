// Signed webhook deliveries per second from the mock's engine to a local receiver, against a
// baseline measured in the same run: the same number of plain fetch POSTs of the same body to the
// same receiver, at the dispatcher's concurrency, with no signing and no bookkeeping.
// One run: reset the sandbox, create an endpoint over the v3 API, emit --count events through the
// webhook service (not timed), then time dispatcher.runDue() until every delivery is delivered.
// Reports the median of --runs runs (default 3). The target: >= 2,000 signed deliveries/s.
// Usage: node --import tsx test/bench/webhook-deliveries.mjs [--count 5000] [--runs 3]
import { createServer } from 'node:http';
import { verifyWebhookSignature } from '../../generated/exchange-v3/client.js';
import { webhookHeaderNames } from '../../mock-server/dispatch/sign.js';
import { startMockServer } from '../../mock-server/server.js';

function flag(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  const value = index > 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

const count = flag('count', 5000);
const runs = flag('runs', 3);
// The engine's dispatcher runs with its default bounded concurrency; the baseline uses the same.
const concurrency = 8;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// ---- the receiver: answers 204 to everything, keeps the first request of each run ----
let received = 0;
let firstSeen = null;
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    received += 1;
    if (firstSeen === null) firstSeen = { headers: req.headers, raw: Buffer.concat(chunks) };
    res.writeHead(204).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

const mock = await startMockServer({ port: 0, seed: 1 });
// Only the timed runDue calls send: no 200 ms background tick.
mock.sandbox.stopDispatching();

async function createEndpoint() {
  const response = await fetch(`${mock.url}/api/v3/private/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${mock.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', url: receiverUrl, events: ['api.test'] }),
  });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`createWebhookEndpoint answered ${response.status}: ${JSON.stringify(body)}`);
  return body.result.endpoint;
}

/** One engine run: deliveries per second of runDue until all `count` are delivered. */
async function engineRun() {
  await mock.sandbox.reset(1);
  const endpoint = await createEndpoint();
  const { service, dispatcher } = mock.sandbox.webhooks;
  const clientId = String(mock.sandbox.defaultKey.client.id);
  let body = '';
  for (let i = 0; i < count; i += 1) {
    const { event } = await service.emit({ clientId, type: 'api.test', resource: { type: 'webhook_endpoint', id: endpoint.id }, payload: { i }, requestId: `req_bench_${i}` });
    body = event.body;
  }
  received = 0;
  firstSeen = null;
  let delivered = 0;
  const started = process.hrtime.bigint();
  for (let rounds = 0; delivered < count; rounds += 1) {
    const summary = await dispatcher.runDue();
    delivered += summary.delivered;
    if (summary.attempted === 0 && summary.skipped === 0 && rounds > 0) throw new Error(`stuck at ${delivered} of ${count} delivered`);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (received !== count) throw new Error(`the receiver got ${received} requests for ${count} deliveries`);
  const signature = firstSeen?.headers[webhookHeaderNames.signature.toLowerCase()];
  if (!verifyWebhookSignature(firstSeen?.raw ?? '', String(signature), endpoint.secret)) throw new Error('a delivery did not verify');
  return { perSecond: count / seconds, body };
}

/** The baseline: `count` plain POSTs of the same body, `concurrency` at a time. */
async function baselineRun(body) {
  received = 0;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const response = await fetch(receiverUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await response.text();
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (received !== count) throw new Error(`the receiver got ${received} of ${count} plain POSTs`);
  return count / seconds;
}

const engine = [];
const baseline = [];
try {
  for (let i = 0; i < runs; i += 1) {
    const run = await engineRun();
    engine.push(run.perSecond);
    baseline.push(await baselineRun(run.body));
  }
} finally {
  await mock.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
}

const result = {
  count,
  runs,
  concurrency,
  signed_deliveries_per_s: Math.round(median(engine)),
  plain_posts_per_s: Math.round(median(baseline)),
  ratio: Number((median(engine) / median(baseline)).toFixed(2)),
  target_per_s: 2000,
};
console.table([result]);
console.log(JSON.stringify(result));
