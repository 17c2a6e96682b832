// Two `serve` processes on one PostgreSQL database behind a round-robin front, under a concurrent
// write load (orders, v1 deposits, webhook endpoints) whose webhook deliveries a receiver refuses
// at first, so they are queued for retry. The holder is killed with SIGKILL mid-load: the replica
// takes the sandbox over, every write the front acknowledged reads back through it, every queued
// delivery still reaches the receiver, and a process started again joins as a replica and serves.
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxControlClient } from '../../generated/sandbox-control/client.js';
import { durableEngines } from '../durable/support/durable-server.js';
import { useRecordingServer } from '../support/recording-server.js';
import { startRoundRobinFront } from './support/round-robin-front.js';
import { replicaSet, v1Client, v3Client } from './support/replica-set.js';

const postgres = durableEngines().find((engine) => engine.name === 'postgres');

/** Per delivery target (endpoint path and event id): the statuses the receiver answered, 500 to the first attempt. */
const answered = new Map<string, number[]>();
const receiver = useRecordingServer((seen) => {
  const event = JSON.parse(seen.body) as { id: string };
  const key = `${seen.url} ${event.id}`;
  const statuses = answered.get(key) ?? [];
  statuses.push(statuses.length === 0 ? 500 : 200);
  answered.set(key, statuses);
  return { status: statuses.at(-1)! };
});

interface OrderEvent {
  id: string;
  type: string;
  data: { order?: { public_id: string } };
}

describe.runIf(postgres !== undefined)('the holder killed mid-load behind a round-robin front', () => {
  afterAll(() => postgres?.cleanUp());

  it('loses no acknowledged write and no queued delivery, and a restarted process joins as a replica', async () => {
    // Retries a minute apart on the virtual clock, so refused deliveries wait, queued, until it is advanced.
    const replicas = replicaSet(await postgres!.place(), ['--webhook-retry-schedule', '0,60,60,60,60,60,60,60', '--webhook-disable-after', '0']);
    const holder = await replicas.start();
    const replica = await replicas.start();
    expect([holder.asReplica, replica.asReplica]).toEqual([false, true]);
    const front = await startRoundRobinFront([holder.url, replica.url]);
    const control = new SandboxControlClient({ baseUrl: front.url });
    // A key of the control API's largest rate limit: the load runs until the takeover, however long
    // that takes, and the reads after it must not meet the default key's 600 a minute.
    const limits = { rate_limit_per_minute: 100_000, quota_daily: 100_000_000, quota_monthly: 1_000_000_000 };
    const token = (await control.mintToken({ body: limits })).body.result.token;
    const v3 = v3Client(front.url, token);
    const v1 = v1Client(front.url);
    try {
      const route = (await v3.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!;
      const main = { name: 'Receiver', url: `${receiver.baseUrl}/main`, events: ['order.created'] as ['order.created'] };
      expect((await v3.createWebhookEndpoint({ body: main })).status).toBe(201);

      const acked = { orders: [] as string[], deposits: [] as string[], endpoints: [] as string[] };
      let endpointsSent = 1;
      const writes: ((n: number) => Promise<unknown>)[] = [
        async (n) => {
          const body = { route_id: route.id, amount: route.limits.min_give, email: `load${n}@example.com`, requisites: { to_address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' } };
          acked.orders.push((await v3.createOrder({ body })).body.result.order.public_id);
        },
        async (n) => acked.deposits.push((await v1.createDeposit({ body: { order_id: `ORD-load-${n}`, asset: 'TRX', amount: '50' } })).body.data.uuid),
        async (n) => {
          // A client may have 10 endpoints (counted as sent, answered or not): then this turn makes an order.
          if (endpointsSent >= 10) return writes[0]!(n);
          endpointsSent += 1;
          const body = { name: `Load ${n}`, url: `${receiver.baseUrl}/load-${n}`, events: ['order.created'] as ['order.created'] };
          acked.endpoints.push((await v3.createWebhookEndpoint({ body })).body.result.endpoint.id);
        },
      ];
      let killed = false;
      let stop = false;
      let n = 0;
      const worker = async (lane: number) => {
        while (!stop) {
          const count = n++;
          try {
            await writes[(lane + count) % writes.length]!(count);
          } catch (error) {
            // Once the holder is killed, a write in flight may go unanswered: it was not acknowledged.
            if (!killed) throw error;
          }
          // Killed once 60 writes were acknowledged, each kind among them, and refused deliveries wait queued.
          const enough = acked.orders.length > 5 && acked.deposits.length > 5 && acked.endpoints.length > 2 && receiver.seen.length > 5;
          if (!killed && enough && acked.orders.length + acked.deposits.length + acked.endpoints.length >= 60) {
            killed = true;
            holder.child.kill('SIGKILL');
          }
        }
      };
      const load = Promise.all([0, 1, 2, 3, 4, 5].map(worker));
      // The load goes on through the replica (the front skips the dead port) until it took over.
      await holder.exit;
      const tookOver = await replica.tookOver;
      expect(tookOver.stdout).toContain(`listening on ${replica.url}\n`);
      stop = true;
      await load;

      // Ids are unique across the processes, before the kill and after the takeover.
      for (const ids of Object.values(acked)) expect(new Set(ids).size).toBe(ids.length);
      for (const order of acked.orders) expect((await v3.getExchangeOrder({ path: { order } })).status, order).toBe(200);
      for (const uuid of acked.deposits) expect((await v1.getDeposit({ path: { uuid } })).status, uuid).toBe(200);
      for (const webhook of acked.endpoints) expect((await v3.getWebhookEndpoint({ path: { webhook } })).status, webhook).toBe(200);

      // Queued: every delivery the receiver refused, and the main endpoint's of every acknowledged order.
      const delivered = () => new Set([...answered].filter(([, statuses]) => statuses.includes(200)).map(([key]) => key));
      const mainEvents = () => new Map(receiver.seen.filter((seen) => seen.url === '/main').map((seen) => JSON.parse(seen.body) as OrderEvent).map((event) => [event.data.order?.public_id, event.id]));
      const undelivered = () => {
        const refused = [...answered.keys()];
        const events = mainEvents();
        const ordersOfMain = acked.orders.map((order) => (events.has(order) ? `/main ${events.get(order)}` : `/main: ${order} never attempted`));
        const done = delivered();
        return [...new Set([...refused, ...ordersOfMain])].filter((key) => !done.has(key));
      };
      // A delivery the killed holder was attempting is retried once its lease (the attempt's timeout + 10 s) ran out.
      const deadline = Date.now() + 60_000;
      while (undelivered().length > 0 && Date.now() < deadline) {
        expect((await control.advanceClock({ body: { seconds: 61 } })).status).toBe(200);
        expect((await control.runDueWebhooks({})).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(undelivered()).toEqual([]);

      // Started again on the killed holder's port, a process joins as a replica and serves what the sandbox holds.
      const again = await replicas.start(Number(new URL(holder.url).port));
      expect(again.asReplica).toBe(true);
      const order = acked.orders.at(-1)!;
      expect((await v3Client(again.url, token).getExchangeOrder({ path: { order } })).status).toBe(200);
      // Through the front: one read on each process.
      for (let i = 0; i < 2; i += 1) expect((await v3.getExchangeOrder({ path: { order } })).status).toBe(200);
    } finally {
      await front.close();
    }
  }, 120_000);
});
