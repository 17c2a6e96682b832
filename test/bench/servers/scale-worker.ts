// Child process of the scale benchmark (run with --expose-gc): starts the mock, measures its
// memory, stores `count` records of one kind through its domain service (not over HTTP: v1
// deposits of the default site, or v3 orders of the default client, each with the requisites and
// the email of its own that a createOrder body carries: seed-orders.ts), measures again, then times
// that kind's list (20 a page, page and cursor mode) over HTTP as its client would call it; with
// orders, also the client's webhook event list, which holds their order.created events.
// Prints one JSON line with the figures.
// Usage: scale-worker.ts <deposits|orders> <count> <samples>
import { createHmacSigner, depositV1SignatureScheme } from '../../../generated/deposit-v1/client.js';
import { depositV1Routes } from '../../../generated/deposit-v1/routes.js';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../../generated/exchange-v3/routes.js';
import { startMockServer } from '../../../mock-server/server.js';
import { settledMemory } from '../lib/settled-memory.js';
import { seedDeposits } from './seed-deposits.js';
import { seedOrders } from './seed-orders.js';
import { SlowSteps } from './slow-steps.js';

const [kind, countText, samplesText] = process.argv.slice(2);
const count = Number(countText);
const samples = Number(samplesText ?? 30);
if (kind !== 'deposits' && kind !== 'orders') throw new Error('usage: scale-worker.ts <deposits|orders> <count> [samples]');

const server = await startMockServer({ port: 0, seed: 1 });
server.sandbox.stopDispatching();
const { sandbox } = server;
// Nothing expires while the lists are timed.
sandbox.clock.freeze();

type List = (query: string) => Promise<number>;

/** A v3 list of the default client: GET `operationId`'s path with extra query parameters. */
function v3List(operationId: string): List {
  const path = `${exchangeV3RoutesBasePath}${exchangeV3Routes.find((r) => r.operationId === operationId)!.path}`;
  return async (query) => {
    const response = await fetch(`${server.url}${path}?${query}`, { headers: { authorization: `Bearer ${server.token}` } });
    await response.arrayBuffer();
    return response.status;
  };
}

const steps = new SlowSteps();

/** Stores the records and returns how to send one list request with extra query parameters. */
async function seed(): Promise<List> {
  if (kind === 'deposits') {
    seedDeposits(sandbox, count, 'scale', steps);
    const path = depositV1Routes.find((r) => r.operationId === 'listDeposits')!.path;
    const signer = createHmacSigner(depositV1SignatureScheme, { key: server.site.apiKey, secret: server.site.apiSecret }, { now: () => sandbox.clock.nowMs() });
    return async (query) => {
      const url = new URL(`${server.url}${path}?${query}`);
      const headers = new Headers();
      await signer({ method: 'GET', url, headers, body: undefined });
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      return response.status;
    };
  }
  await seedOrders(sandbox, count, steps);
  return v3List('listOrders');
}

const before = settledMemory();
const seedStarted = performance.now();
const list = await seed();
const seedMs = performance.now() - seedStarted;
const after = settledMemory();

/** Median ms of `samples` sequential list calls, after a few unmeasured ones (an index is built on first use). */
async function listLatency(query: string, list: List): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples + 3; i += 1) {
    const started = performance.now();
    const status = await list(query);
    const ms = performance.now() - started;
    if (status !== 200) throw new Error(`the ${kind} list answered ${status} to ?${query}`);
    if (i >= 3) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const v3Cursor = 'pagination=cursor&per_page=20';
const v3Page = 'page=1&per_page=20';
const cursorQuery = kind === 'deposits' ? 'cursor=&perPage=20' : v3Cursor;
const events = kind === 'orders' ? v3List('listWebhookEvents') : null;
const figures = {
  kind,
  count,
  seedMs: Math.round(seedMs),
  longestCreate: await steps.longest(),
  rssBytesPerRecord: Math.round((after.rss - before.rss) / count),
  heapBytesPerRecord: Math.round((after.heap - before.heap) / count),
  rssMb: Math.round(after.rss / 1e6),
  listPageMs: await listLatency(kind === 'deposits' ? 'page=1&perPage=20' : v3Page, list),
  listCursorMs: await listLatency(cursorQuery, list),
  eventsPageMs: events === null ? null : await listLatency(v3Page, events),
  eventsCursorMs: events === null ? null : await listLatency(v3Cursor, events),
};
console.log(JSON.stringify(figures));
await server.close();
process.exit(0);
