// A restart on a durable store goes on with the v1 deposits as a mock without one does, though a
// sqlite: file's deposits stay on the file until asked for (a start reads none of them): lookups by
// uuid and order id, the history in pages and by cursor, a status filter, a lifetime that ends
// after the restart (with its event), a payment to a deposit read from the file, a repeated create,
// a new deposit on a memo network (the shared address), and a payment to a static address. Each
// step's answers are compared with those of a memory mock of the same seed driven the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deposit, StaticAddress } from '../../generated/deposit-v1/types.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { newSite, siteClient, type TestSite } from '../mock-server/support/sites.js';
import { MemoryStore } from '../../mock-server/store/memory/memory-store.js';
import { durableEngines, durablePlace } from './support/durable-server.js';

const seed = 17;
const frozenAtMs = Date.parse('2026-06-01T12:00:00.000Z');
const count = 25;

interface Driven {
  site: TestSite;
  deposits: Deposit[];
  staticAddress: StaticAddress;
}

/** Before the restart: 25 TRX deposits (one waits 300 s), one on XRP (a memo network), a static address on XRP. */
async function drive(server: TestServer): Promise<Driven> {
  server.sandbox.stopDispatching();
  // One instant on both mocks (their answers are compared, times included); kept by the store from the advance on.
  server.sandbox.clock.restore({ offsetMs: 0, frozenAtMs: frozenAtMs - 1000 });
  await server.control.advanceClock({ body: { seconds: 1 } });
  const site = await newSite(server);
  const deposits: Deposit[] = [];
  for (let i = 0; i < count; i += 1) {
    const body = { order_id: `ORD-${i}`, asset: 'TRX', amount: '50', ...(i === 3 ? { lifetime: 300 } : {}) };
    deposits.push((await site.v1.createDeposit({ body })).body.data);
    // Apart in time, so the history's order is by createdAt, not only by uuid.
    if (i % 5 === 4) await server.control.advanceClock({ body: { seconds: 1 } });
  }
  deposits.push((await site.v1.createDeposit({ body: { order_id: 'ORD-xrp', asset: 'XRP', amount: '25' } })).body.data);
  const staticAddress = (await site.v1.createStaticAddress({ body: { orderId: 'user-1', asset: 'XRP' } })).body.data;
  return { site, deposits, staticAddress };
}

/** Every page of the site's history, 10 at a time, by cursor. */
async function byCursor(site: TestSite, query: { status?: Deposit['status'][] } = {}): Promise<string[]> {
  const uuids: string[] = [];
  let cursor = '';
  for (;;) {
    const page = (await site.v1.listDeposits({ query: { ...query, cursor, perPage: 10 } })).body;
    uuids.push(...page.data.map((d) => d.uuid));
    if (page.meta.nextCursor === null) return uuids;
    cursor = page.meta.nextCursor;
  }
}

/** After the restart (or none): what a client sees of the deposits, step by step. */
async function after(server: TestServer, site: TestSite, driven: Driven) {
  const { deposits, staticAddress } = driven;
  const seen: Record<string, unknown> = {};
  seen.byUuid = (await site.v1.getDeposit({ path: { uuid: deposits[7]!.uuid } })).body.data;
  seen.byOrderId = (await site.v1.getDepositByOrderId({ path: { orderId: 'ORD-9' } })).body.data;
  seen.pages = [1, 2, 3].map(async (page) => (await site.v1.listDeposits({ query: { page, perPage: 10 } })).body);
  seen.pages = await Promise.all(seen.pages as Promise<unknown>[]);
  seen.cursor = await byCursor(site);
  // The lifetime of ORD-3 ends after the restart: it expires, with its event.
  await server.control.advanceClock({ body: { seconds: 301 } });
  seen.expired = await byCursor(site, { status: ['expired'] });
  seen.expiredPage = (await site.v1.listDeposits({ query: { page: 1, perPage: 5, status: ['expired'] } })).body.meta;
  // A payment to a deposit the restarted mock has not read yet.
  const paid = deposits[11]!;
  await server.control.injectChainTransaction({ body: { network: paid.network, address: paid.address, amount: '50', confirmations: 30 } });
  seen.paid = (await site.v1.getDeposit({ path: { uuid: paid.uuid } })).body.data;
  // A repeated create answers the deposit it made; a new one on XRP shares the network's address.
  seen.repeated = (await site.v1.createDeposit({ body: { order_id: 'ORD-1', asset: 'TRX', amount: '50' } })).body.data.uuid;
  seen.newXrp = (await site.v1.createDeposit({ body: { order_id: 'ORD-xrp-2', asset: 'XRP', amount: '30' } })).body.data;
  // A payment to the static address makes its payment deposit.
  await server.control.injectChainTransaction({
    body: { network: staticAddress.network, address: staticAddress.address, memo: staticAddress.memo!, amount: '12', confirmations: 10 },
  });
  seen.staticAddress = (await site.v1.getStaticAddress({ path: { uuid: staticAddress.uuid } })).body.data;
  seen.payments = (await site.v1.listStaticAddressPayments({ path: { uuid: staticAddress.uuid }, query: { page: 1, perPage: 10 } })).body;
  seen.all = await byCursor(site);
  const events = (await server.control.listInspectorRecords({ path: { kind: 'webhook_events' } })).body.result.items as { type: string; resource: { id: unknown } }[];
  seen.events = events.map((event) => `${event.type} ${String(event.resource.id)}`);
  return seen;
}

describe.each(durableEngines())('deposits after a restart on the $name engine', (engine) => {
  let twin: Record<string, unknown>;
  let restarted: Record<string, unknown>;
  let driven: Driven;

  beforeAll(async () => {
    const memory = await startTestServer({ seed, store: new MemoryStore() });
    try {
      const once = await drive(memory);
      twin = await after(memory, once.site, once);
    } finally {
      await memory.close();
    }
    const place = await durablePlace(engine);
    const first = await place.start({ seed });
    driven = await drive(first);
    await first.close();
    const second = await place.start();
    try {
      second.sandbox.stopDispatching();
      const site = { ...driven.site, v1: siteClient(second, driven.site.site.api_key, driven.site.apiSecret) };
      restarted = await after(second, site, driven);
    } finally {
      await second.close();
    }
  });
  afterAll(async () => {
    await engine.cleanUp();
  });

  it('finds a deposit by uuid and by order id, and lists the history in pages and by cursor, as without a restart', () => {
    expect(restarted.byUuid).toEqual(twin.byUuid);
    expect(restarted.byOrderId).toEqual(twin.byOrderId);
    expect(restarted.pages).toEqual(twin.pages);
    expect(restarted.cursor).toEqual(twin.cursor);
    const newestFirst = [...driven.deposits].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.uuid.localeCompare(a.uuid));
    expect(restarted.cursor).toEqual(newestFirst.map((d) => d.uuid));
  });

  it('expires a deposit whose lifetime ends after the restart, with its event', () => {
    expect(restarted.expired).toEqual([driven.deposits[3]!.uuid]);
    expect(restarted.expiredPage).toEqual(twin.expiredPage);
    expect(restarted.events).toEqual(twin.events);
    expect(restarted.events).toContain(`deposit.expired ${driven.deposits[3]!.uuid}`);
  });

  it('credits a payment to a deposit not read since the restart, and answers a repeated create with the deposit it made', () => {
    expect((restarted.paid as Deposit).status).not.toBe('waiting');
    expect(restarted.paid).toEqual(twin.paid);
    expect(restarted.repeated).toBe(driven.deposits[1]!.uuid);
  });

  it("gives a new deposit on a memo network the network's address and the next ids, as without a restart", () => {
    expect(restarted.newXrp).toEqual(twin.newXrp);
    expect((restarted.newXrp as Deposit).address).toBe(driven.deposits.at(-1)!.address);
  });

  it('turns a payment to a static address into its payment deposit, counted and listed', () => {
    expect(restarted.staticAddress).toEqual(twin.staticAddress);
    expect((restarted.staticAddress as StaticAddress).paymentsCount).toBe(1);
    expect(restarted.payments).toEqual(twin.payments);
    expect(restarted.all).toEqual(twin.all);
  });
});
