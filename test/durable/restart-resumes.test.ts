// After a restart on a durable store (a sqlite: file, a postgres:// database) the sandbox goes on
// as it would have without one: a waiting deposit still expires when the clock reaches its
// lifetime (with its deposit.expired event), and the next deposit, order, key and event get the
// ids a memory mock of the same seed, driven the same way without a restart, gives them. A
// restart writes back none of the records it read. A reset is what a restart after it resumes;
// one cut short before the new sandbox was written resumes the sandbox before it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deposit } from '../../generated/deposit-v1/types.js';
import { btcToUsdtOrder } from '../mock-server/support/exchange-order.js';
import { openStore } from '../../mock-server/store/open-store.js';
import type { JournalWrite } from '../../mock-server/store/record-journal.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { newSite, siteClient, type TestSite } from '../mock-server/support/sites.js';
import { durableEngines, durablePlace, type DurablePlace } from './support/durable-server.js';

const seed = 9;

interface Driven {
  server: TestServer;
  site: TestSite;
  waiting: Deposit;
}

/** The same steps on either mock: a site, a deposit that waits 300 s, an order. */
async function drive(server: TestServer): Promise<Driven> {
  server.sandbox.stopDispatching();
  await server.control.freezeClock();
  const site = await newSite(server);
  const waiting = (await site.v1.createDeposit({ body: { order_id: 'ORD-waiting', asset: 'TRX', amount: '50', lifetime: 300 } })).body.data;
  await btcToUsdtOrder(server, server.v3, { events: [] });
  return { server, site, waiting };
}

async function deliveredEvents(server: TestServer): Promise<{ id: string; type: string; resource: { id: unknown } }[]> {
  return (await server.control.listInspectorRecords({ path: { kind: 'webhook_events' } })).body.result.items as never;
}

/** What comes next on a mock: the deposit's expiry after 301 s, then a new deposit, order and key. */
async function next(server: TestServer, site: TestSite) {
  await server.control.advanceClock({ body: { seconds: 301 } });
  const events = await deliveredEvents(server);
  const deposit = (await site.v1.createDeposit({ body: { order_id: 'ORD-next', asset: 'TRX', amount: '60' } })).body.data;
  const order = await btcToUsdtOrder(server, server.v3, { events: [] });
  const key = (await server.control.mintToken()).body.result;
  return { events, deposit, order, key };
}

describe.each(durableEngines())('a restart on the $name engine', (engine) => {
  let twin: Driven;
  let restarted: TestServer;
  let site: TestSite;
  let waiting: Deposit;

  beforeAll(async () => {
    const file = await durablePlace(engine);
    twin = await drive(await startTestServer({ seed }));
    const first = await drive(await file.start({ seed }));
    waiting = first.waiting;
    await first.server.close();
    restarted = await file.start();
    restarted.sandbox.stopDispatching();
    site = { ...first.site, v1: siteClient(restarted, first.site.site.api_key, first.site.apiSecret) };
  });
  afterAll(async () => {
    await Promise.all([twin?.server.close(), restarted?.close()]);
    await engine.cleanUp();
  });

  it('expires a waiting deposit on time, with its event, and gives the next records the ids a mock without a restart gives them', async () => {
    expect(waiting.uuid).toBe(twin.waiting.uuid);
    const [expected, resumed] = await Promise.all([next(twin.server, twin.site), next(restarted, site)]);
    expect(resumed.events.filter((e) => e.type === 'deposit.expired').map((e) => e.resource.id)).toEqual([waiting.uuid]);
    expect(resumed.events.map((e) => [e.id, e.type])).toEqual(expected.events.map((e) => [e.id, e.type]));
    expect((await site.v1.getDeposit({ path: { uuid: waiting.uuid } })).body.data.status).toBe('expired');
    expect(resumed.deposit.uuid).toBe(expected.deposit.uuid);
    expect(resumed.deposit.address).toBe(expected.deposit.address);
    expect([resumed.order.id, resumed.order.public_id, resumed.order.tracking_id]).toEqual([expected.order.id, expected.order.public_id, expected.order.tracking_id]);
    expect([resumed.key.key.id, resumed.key.token, resumed.key.hmac_secret]).toEqual([expected.key.key.id, expected.key.token, expected.key.hmac_secret]);
  });
});

/** The seed and orders a mock restarted on `file` resumes. */
async function resumedOrders(file: DurablePlace): Promise<{ seed: number; orders: string[] }> {
  const restarted = await file.start();
  try {
    const state = (await restarted.control.exportSandboxState()).body.result;
    return { seed: state.seed, orders: state.exchange.orders.orders.map((o) => o.publicId) };
  } finally {
    await restarted.close();
  }
}

describe.each(durableEngines())('a restart on the $name engine, of what it writes', (engine) => {
  afterAll(() => engine.cleanUp());

  it('writes back none of the records it read (a start costs the reading, not a rewrite), and audits the writes after it', async () => {
    const place = await durablePlace(engine);
    const { server } = await drive(await place.start({ seed }));
    await server.close();
    const store = await openStore(place.spec);
    const writes: JournalWrite[] = [];
    const write = store.journal!.write.bind(store.journal);
    store.journal!.write = (change) => {
      writes.push(change);
      return write(change);
    };
    // With the audit, which compares every write with the whole sandbox from its copy of the journal.
    const restarted = await startTestServer({ store, journalAudit: true });
    restarted.sandbox.stopDispatching();
    const atStart = [...writes];
    try {
      // Audited against a copy that starts from the rows as they were read.
      await btcToUsdtOrder(restarted, restarted.v3, { events: [] });
    } finally {
      await restarted.close();
      await store.close();
    }
    expect(atStart.some((change) => change.whole)).toBe(false);
    // The default key and site are the running mock's own, set after the records are taken up.
    expect(new Set(atStart.flatMap((change) => change.upserts.map((row) => row.kind)))).toEqual(new Set(['key', 'site']));
    expect(writes.length).toBeGreaterThan(atStart.length);
  });
});

describe.each(durableEngines())('a reset on the $name engine', (engine) => {
  afterAll(() => engine.cleanUp());

  it('is what a restart resumes: the new seed, none of the records before it', async () => {
    const file = await durablePlace(engine);
    const first = await file.start({ seed: 3 });
    await btcToUsdtOrder(first, first.v3, { events: [] });
    await first.control.resetSandbox({ body: { seed: 77 } });
    const afterReset = await btcToUsdtOrder(first, first.v3, { events: [] });
    await first.close();
    expect(await resumedOrders(file)).toEqual({ seed: 77, orders: [afterReset.public_id] });
  });

  it('leaves the journal as it was until the new sandbox is written: a reset cut short resumes the sandbox before it', async () => {
    const file = await durablePlace(engine);
    const first = await file.start({ seed: 5 });
    const order = await btcToUsdtOrder(first, first.v3, { events: [] });
    // What a reset does first; the process then dies before the new sandbox is built and written.
    await first.sandbox.store.clear();
    await first.close();
    expect(await resumedOrders(file)).toEqual({ seed: 5, orders: [order.public_id] });
  });
});
