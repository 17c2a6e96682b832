// `npm run soak`: the mock (in its own process, as the benchmarks run it) under a fixed request
// rate for a while across a realistic mix of calls — public and private pings, the route list,
// webhook endpoints and events, usage and the client profile, and writes that add records for the
// whole run (v3 quotes and orders, each order with its order.created event, and v1 signed
// deposits) — with its resident memory
// sampled every second. Passes with 0 errors and 0 non-2xx answers and, for runs of 30 s or more,
// an RSS that does not grow over the second half of the run (least-squares slope at most
// +2 MB a minute; garbage collection makes it saw-toothed, so a falling slope passes; shorter runs
// report the slope without judging it); writes bench-results/soak.json.
//   --duration S (default 60)   --rate N requests a second (default 200)   --quick (5 s)
import autocannon from 'autocannon';
import { parseArgs } from 'node:util';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { startChild, tsxNode } from './lib/processes.js';
import { report, round } from './lib/report.js';
import { rssBytes, slope } from './lib/rss.js';
import { throughputCases, type Case, type MockCredentials } from './throughput-cases.js';

const flatMbPerMinute = 2;
/** Shorter runs (the smoke run) are too short for a slope to mean anything. */
const judgedFromSeconds = 30;

const { values } = parseArgs({
  options: { duration: { type: 'string' }, rate: { type: 'string', default: '200' }, quick: { type: 'boolean', default: false } },
  strict: true,
});
const duration = Number(values.duration ?? (values.quick ? 5 : 60));
const rate = Number(values.rate);

const pathOf = (operationId: string) => `${exchangeV3RoutesBasePath}${exchangeV3Routes.find((r) => r.operationId === operationId)!.path}`;

const mock = await startChild<MockCredentials>(tsxNode, 'test/bench/servers/mock.ts');
try {
  const auth = { authorization: `Bearer ${mock.info.token}` };
  const { cases } = await throughputCases(mock.info);
  const [, list, quote, , deposit] = cases as [Case, Case, Case, Case, Case];
  const get = (path: string) => ({ method: 'GET' as const, path, headers: auth });
  const post = (path: string, body: unknown) => ({ method: 'POST' as const, path, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  // An order on a route whose payout address is a TRON one (the requisite checks know its format).
  const routes = (await (await fetch(`${mock.info.url}${pathOf('listRoutes')}?filter[from]=BTC&filter[to]=USDTTRC20`, { headers: auth })).json()) as {
    result: { routes: { id: number; limits: { min_give: string } }[] };
  };
  const orderRoute = routes.result.routes[0];
  if (orderRoute === undefined) throw new Error('no BTC → USDTTRC20 route to order on');
  const order = { route_id: orderRoute.id, amount: orderRoute.limits.min_give, email: 'soak@example.com', requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' } };
  // Reads outnumber writes, as in an integration suite; every write stores a record for good.
  const mix = [
    get(pathOf('ping')),
    get(pathOf('privatePing')),
    get(list.target),
    { method: 'POST' as const, path: quote.target, headers: quote.headers, body: quote.body! },
    post(pathOf('createOrder'), order),
    // A new order id and signature on every request.
    {
      method: 'POST' as const,
      path: deposit.target,
      setupRequest: (request: autocannon.Request) => {
        const made = deposit.each!();
        return { ...request, headers: { ...deposit.headers, ...made.headers }, body: made.body! };
      },
    },
    get(pathOf('listWebhookEndpoints')),
    get(pathOf('listWebhookEvents')),
    get(pathOf('getUsage')),
    get(pathOf('getClient')),
  ];
  const samples: { seconds: number; rss: number }[] = [];
  const started = Date.now();
  const sample = () => samples.push({ seconds: (Date.now() - started) / 1000, rss: rssBytes(mock.child.pid!) });
  sample();
  const timer = setInterval(sample, 1000);
  const result = await autocannon({ url: mock.info.url, connections: 10, overallRate: rate, duration, requests: mix });
  clearInterval(timer);
  sample();

  const secondHalf = samples.filter((s) => s.seconds >= duration / 2);
  const mbPerMinute = slope(secondHalf.map((s) => s.seconds / 60), secondHalf.map((s) => s.rss / 1e6));
  const errors = result.errors + result.timeouts;
  const judged = duration >= judgedFromSeconds;
  const flat = !judged || mbPerMinute <= flatMbPerMinute;
  const file = report({
    name: 'soak',
    rows: [
      {
        seconds: duration,
        'target req/s': rate,
        'req/s': round(result.requests.average),
        requests: result.requests.total,
        errors,
        'non-2xx': result.non2xx,
        'RSS start MB': round(samples[0]!.rss / 1e6),
        'RSS end MB': round(samples.at(-1)!.rss / 1e6),
        'RSS slope MB/min (2nd half)': round(mbPerMinute, 2),
        flat: judged ? (flat ? 'yes' : 'no') : 'not judged',
      },
    ],
    details: { mix: mix.map((r) => `${r.method} ${r.path}`), flatMbPerMinute, rssSamples: samples },
  });
  console.log(`wrote ${file}`);
  process.exitCode = errors === 0 && result.non2xx === 0 && flat ? 0 : 1;
} finally {
  await mock.stop();
}
