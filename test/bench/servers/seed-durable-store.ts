// Child process of the restart and store-bytes benchmarks: builds a sandbox on a new durable
// store (`sqlite:FILE` or `postgres://…` of an empty database), stores `count` records of one
// kind through its domain service (not over HTTP: v1 deposits of the default site, or v3 orders
// of the default client with their order.created events), writes the journal once (as a reset
// or a load would), and closes. The clock is frozen first, and the store keeps it frozen: nothing
// expires between the seeding and the restarts that read it.
// Prints one JSON line: { seedMs, writeMs, storeBytes, siteKey, siteSecret }, where storeBytes is
// the file's size or the database's (pg_database_size) once closed.
// Usage: seed-durable-store.ts STORE <deposits|orders> COUNT
import { statSync } from 'node:fs';
import { startMockServer } from '../../../mock-server/server.js';
import { openStore } from '../../../mock-server/store/open-store.js';
import { seedDeposits } from './seed-deposits.js';
import { seedOrders } from './seed-orders.js';

const [spec, kind, countText] = process.argv.slice(2);
const count = Number(countText);
if (spec === undefined || (kind !== 'deposits' && kind !== 'orders') || !Number.isInteger(count)) {
  throw new Error('usage: seed-durable-store.ts STORE <deposits|orders> COUNT');
}

async function storeBytes(store: string): Promise<number> {
  if (store.startsWith('sqlite:')) return statSync(store.slice('sqlite:'.length)).size;
  const { default: pg } = await import('pg');
  const client = new pg.Client(store);
  await client.connect();
  try {
    const { rows } = await client.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
    return Number(rows[0]!.bytes);
  } finally {
    await client.end();
  }
}

const store = await openStore(spec);
const server = await startMockServer({ port: 0, seed: 1, store });
const { sandbox } = server;
sandbox.stopDispatching();
sandbox.clock.freeze();
const seedStarted = performance.now();
if (kind === 'deposits') seedDeposits(sandbox, count, 'restart');
else await seedOrders(sandbox, count);
const seedMs = performance.now() - seedStarted;
const writeStarted = performance.now();
await sandbox.journal!.rewrite();
const writeMs = performance.now() - writeStarted;
const site = { siteKey: server.site.apiKey, siteSecret: server.site.apiSecret };
await server.close();
await store.close();
console.log(JSON.stringify({ seedMs: Math.round(seedMs), writeMs: Math.round(writeMs), storeBytes: await storeBytes(spec), ...site }));
process.exit(0);
