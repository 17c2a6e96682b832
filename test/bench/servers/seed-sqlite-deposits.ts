// Child process of the restart benchmark: builds a sandbox on `sqlite:FILE` (a new file), stores
// `count` v1 deposits of the default site through the deposit service (not over HTTP), writes
// the journal once (as a reset or a load would), and closes. The clock is frozen first, and the
// store keeps it frozen: nothing expires between the seeding and the restarts that read it.
// Prints one JSON line: { seedMs, writeMs, fileBytes, siteKey, siteSecret }.
// Usage: seed-sqlite-deposits.ts FILE COUNT
import { statSync } from 'node:fs';
import { depositableAsset } from '../../../mock-server/domain/deposits/assets.js';
import { defaultLifetimeSeconds } from '../../../mock-server/domain/deposits/deposit-service.js';
import { startMockServer } from '../../../mock-server/server.js';
import { openStore } from '../../../mock-server/store/open-store.js';

const [file, countText] = process.argv.slice(2);
const count = Number(countText);
if (file === undefined || !Number.isInteger(count)) throw new Error('usage: seed-sqlite-deposits.ts FILE COUNT');

const store = await openStore(`sqlite:${file}`);
const server = await startMockServer({ port: 0, seed: 1, store });
const { sandbox } = server;
sandbox.stopDispatching();
sandbox.clock.freeze();
const asset = depositableAsset('BTC');
if (asset === undefined) throw new Error('BTC takes no deposits in this catalog');
const seedStarted = performance.now();
for (let i = 0; i < count; i += 1) {
  sandbox.services.deposits.create(sandbox.defaultSite, { orderId: `restart-${i}`, asset, amount: '0.01', lifetimeSeconds: defaultLifetimeSeconds });
}
const seedMs = performance.now() - seedStarted;
const writeStarted = performance.now();
sandbox.journal!.rewrite();
const writeMs = performance.now() - writeStarted;
const site = { siteKey: server.site.apiKey, siteSecret: server.site.apiSecret };
await server.close();
await store.close();
console.log(JSON.stringify({ seedMs: Math.round(seedMs), writeMs: Math.round(writeMs), fileBytes: statSync(file).size, ...site }));
process.exit(0);
