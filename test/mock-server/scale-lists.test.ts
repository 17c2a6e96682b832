// Lists and timers at scale, by what they touch rather than how long they take (issue 9): with
// tens of thousands of deposits and orders stored, a page of one site's deposits or one client's
// orders over HTTP (default sort, no filter) reads O(log n + page) records of that owner's index
// and its page-mode total is the owner's count; a clock advance settles only the records that
// fell due (the due queues), each listed afterwards with its new status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositMachine, orderMachine } from '../../generated/machines.js';
import { depositableAsset } from '../../mock-server/domain/deposits/assets.js';
import { BY_SITE } from '../../mock-server/domain/deposits/deposit-service.js';
import type { DepositRecord } from '../../mock-server/domain/deposits/deposit-records.js';
import { MemoryDepositStore } from '../../mock-server/store/memory/memory-deposits.js';
import { MemoryStore } from '../../mock-server/store/memory/memory-store.js';
import { BY_CLIENT } from '../../mock-server/domain/exchange/order-service.js';
import { parseSortTerm } from '../../mock-server/store/list-query.js';
import { sampleDraft, testCause } from './orders-helpers.js';
import { startTestServer, type TestServer } from './support/server.js';

// One server; each describe seeds a fresh sandbox once (a reset per test would wipe the seed).
let server: TestServer;
beforeAll(async () => {
  // The memory engine's indexes and queues are what these tests read (a durable engine's are its database's).
  server = await startTestServer({ seed: 9009, store: new MemoryStore() });
  server.sandbox.stopDispatching();
});
afterAll(async () => {
  await server.close();
});

/**
 * Seeding blocks the event loop, on a loaded machine past the server's keep-alive timeout: let
 * the server close the idle connection first, or the next request meets a reset (ECONNRESET).
 */
const idleConnectionsClosed = () => new Promise((resolve) => setTimeout(resolve, 100));

/** The deposits of the memory engine, whose index and due queue the tests read. */
function memoryDeposits(): MemoryDepositStore<DepositRecord> {
  const { records } = server.sandbox.services.deposits;
  if (!(records instanceof MemoryDepositStore)) throw new Error('the sandbox keeps its deposits in no memory store');
  return records;
}

const mine = 20_000;
const others = 5_000;
const perPage = 20;
/** Bisection over the owner's index, the page, and one look past it (has_more). */
const readBound = perPage + Math.ceil(Math.log2(mine + 1)) + 2;

describe('deposit lists scoped to the site', () => {
  const shortLifetime = 600;
  beforeAll(async () => {
    await server.control.resetSandbox();
    await server.control.freezeClock();
    const service = server.sandbox.services.deposits;
    const asset = depositableAsset('BTC')!;
    const otherSite = server.sandbox.sites.find((await server.control.createSite({ body: {} })).body.result.site.api_key)!;
    for (let i = 0; i < mine; i += 1) {
      // Every other deposit expires after 10 minutes, the rest after the machine's hour.
      const lifetimeSeconds = i % 2 === 0 ? shortLifetime : depositMachine.timers.lifetime!.seconds!;
      service.create(server.sandbox.defaultSite, { orderId: `mine-${i}`, asset, amount: '0.01', lifetimeSeconds });
      if (i < others) service.create(otherSite, { orderId: `other-${i}`, asset, amount: '0.01', lifetimeSeconds });
    }
    await idleConnectionsClosed();
  });

  it('reads a page and a cursor page from the site index only, with the site total', async () => {
    const index = memoryDeposits().collection.index([parseSortTerm('-createdAt')], { partition: BY_SITE, key: server.sandbox.defaultSite.id });
    expect(index.size).toBe(mine);

    index.resetMetrics();
    const page = (await server.v1.listDeposits({ query: { page: 2, perPage } })).body;
    expect(page.meta).toMatchObject({ page: 2, total: mine, lastPage: mine / perPage });
    expect(page.data).toHaveLength(perPage);
    expect(page.data.every((d) => d.orderId.startsWith('mine-'))).toBe(true);
    expect(index.metrics.comparisons + index.metrics.visited).toBeLessThanOrEqual(readBound);

    const first = (await server.v1.listDeposits({ query: { cursor: '', perPage } })).body;
    index.resetMetrics();
    const next = (await server.v1.listDeposits({ query: { cursor: first.meta.nextCursor!, perPage } })).body;
    expect(next.data).toHaveLength(perPage);
    expect(next.data.map((d) => d.uuid)).not.toContain(first.data[0]!.uuid);
    expect(index.metrics.comparisons + index.metrics.visited).toBeLessThanOrEqual(readBound);
  });

  it('settles only the deposits that fell due when the clock passes their lifetime', async () => {
    const { timers } = memoryDeposits();
    const before = timers.metrics.taken;
    await server.control.advanceClock({ body: { seconds: shortLifetime } });
    // Half of the site's deposits and half of the other site's, each taken off the queue once.
    expect(timers.metrics.taken - before).toBe(mine / 2 + others / 2);

    const expired = (await server.v1.listDeposits({ query: { page: 1, perPage, status: ['expired'] } })).body;
    expect(expired.meta.total).toBe(mine / 2);
    expect(expired.data.every((d) => d.status === 'expired' && d.updatedAt === d.expiresAt)).toBe(true);
    const waiting = (await server.v1.listDeposits({ query: { page: 1, perPage, status: ['waiting'] } })).body;
    expect(waiting.meta.total).toBe(mine / 2);

    // A list with nothing due takes nothing off the queue.
    const settled = timers.metrics.taken;
    await server.v1.listDeposits({ query: { page: 1, perPage } });
    expect(timers.metrics.taken).toBe(settled);
  });
});

describe('order lists scoped to the client', () => {
  beforeAll(async () => {
    await server.control.resetSandbox();
    await server.control.freezeClock();
    const service = server.sandbox.services.orders;
    const clientId = String(server.sandbox.defaultKey.client.id);
    for (let i = 0; i < mine; i += 1) {
      service.create(clientId, sampleDraft(), testCause);
      if (i < others) service.create('someone-else', sampleDraft(), testCause);
    }
    await service.flush();
    await idleConnectionsClosed();
  });

  it('reads a page of the default sort from the client index only, with the client total', async () => {
    const service = server.sandbox.services.orders;
    const defaultSort = [parseSortTerm('-created_at')];
    const index = service.collection.index(defaultSort, { partition: BY_CLIENT, key: String(server.sandbox.defaultKey.client.id) });
    expect(index.size).toBe(mine);

    index.resetMetrics();
    const listed = (await server.v3.listOrders({ query: { page: 3, per_page: perPage } })).body;
    expect(listed.meta.pagination).toMatchObject({ mode: 'page', total: mine });
    expect(listed.result.orders).toHaveLength(perPage);
    expect(index.metrics.comparisons + index.metrics.visited).toBeLessThanOrEqual(readBound);
  });

  it('settles only the orders whose payment window ended', async () => {
    const { timers } = server.sandbox.services.orders;
    const before = timers.metrics.taken;
    await server.control.advanceClock({ body: { seconds: 1 } });
    expect(timers.metrics.taken).toBe(before);

    await server.control.advanceClock({ body: { seconds: orderMachine.timers.payment_window!.seconds! } });
    expect(timers.metrics.taken - before).toBe(mine + others);
    const expired = (await server.v3.listOrders({ query: { per_page: perPage, 'filter[status]': ['expired'] } })).body;
    expect(expired.meta.pagination).toMatchObject({ total: mine });
    expect(expired.result.orders.every((o) => o.status === 'expired')).toBe(true);
  });
});
