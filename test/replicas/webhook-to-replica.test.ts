// A webhook aimed at a replica's port would be forwarded to the holder: a tenant would reach the
// control API through it. Real `serve` processes on one PostgreSQL database, in the default
// egress mode (local, which reaches loopback): the holder counts every replica's port as its own,
// one started after the endpoint was registered included, and so does a replica that took the
// sandbox over; the inbox path there is handed over in-process, as on the holder's own port.
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../generated/exchange-v3/client.js';
import { SandboxControlClient } from '../../generated/sandbox-control/client.js';
import type { WebhookDelivery } from '../../generated/exchange-v3/types.js';
import { durableEngines } from '../durable/support/durable-server.js';
import { replicaSet, v3Client } from './support/replica-set.js';

const postgres = durableEngines().find((engine) => engine.name === 'postgres');

const portOf = (url: string) => Number(new URL(url).port);

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.runIf(postgres !== undefined)("a webhook aimed at a replica's port", () => {
  afterAll(() => postgres?.cleanUp());

  it('never reaches the control API, before and after a takeover, and reaches the inbox in-process', async () => {
    const replicas = replicaSet(await postgres!.place());
    const holder = await replicas.start();
    const replica = await replicas.start();
    expect([holder.asReplica, replica.asReplica]).toEqual([false, true]);
    const v3 = v3Client(holder.url);
    const control = (base: string) => new SandboxControlClient({ baseUrl: base });
    const register = async (url: string) => (await v3.createWebhookEndpoint({ body: { name: 'aimed', url, events: ['api.test'] } })).body.result.endpoint.id;
    /** Sends the test event to the endpoint through `base` and returns the delivery once attempted. */
    const deliver = async (base: string, endpoint: string): Promise<WebhookDelivery> => {
      const client = v3Client(base);
      const sent = (await client.sendTestWebhook({ body: { endpoint_id: endpoint } })).body.result;
      const read = async () => (await client.getWebhookDelivery({ path: { delivery: sent.deliveries[0]!.id } })).body.result.delivery;
      // The holder's own dispatch may have claimed it first: run-due then skips it while it is attempted.
      const deadline = Date.now() + 20_000;
      let delivery = await read();
      while (delivery.status === 'pending' && Date.now() < deadline) {
        await control(base).runDueWebhooks({});
        delivery = await read();
        if (delivery.status === 'pending') await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return delivery;
    };
    const frozen = async (base: string) => (await control(base).getClock({})).body.result.frozen;

    // Registering the replica's control API is refused as the mock's own.
    const refusal = await v3.createWebhookEndpoint({ body: { name: 'aimed', url: `http://127.0.0.1:${portOf(replica.url)}/__mock/clock/freeze`, events: ['api.test'] } }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).details.url?.join(' ')).toMatch(/own listener/);

    // The inbox on the replica's port: handed over in-process by the holder.
    await control(holder.url).clearInbox({});
    const toInbox = await deliver(holder.url, await register(`http://127.0.0.1:${portOf(replica.url)}/__mock/webhooks/inbox`));
    expect(toInbox.status).toBe('delivered');
    const inbox = (await control(holder.url).listInboxWebhooks({})).body.result.deliveries;
    expect(inbox.map((record) => [record.delivery_id, record.signature_valid])).toEqual([[toInbox.id, true]]);

    // An endpoint registered before a replica listens on its port: refused once it does.
    const later = await freePort();
    const endpoint = await register(`http://127.0.0.1:${later}/__mock/clock/freeze`);
    const third = await replicas.start(later);
    expect(third.asReplica).toBe(true);
    const refused = await deliver(holder.url, endpoint);
    expect(refused.error).toMatchObject({ code: 'egress_denied' });
    expect(refused.error?.message).toMatch(/own listener/);
    expect(await frozen(holder.url)).toBe(false);

    // The replica that takes the sandbox over counts the other replica's port as its own too.
    holder.child.kill('SIGKILL');
    await holder.exit;
    await replica.tookOver;
    const afterTakeover = await deliver(replica.url, endpoint);
    expect(afterTakeover.error).toMatchObject({ code: 'egress_denied' });
    expect(afterTakeover.error?.message).toMatch(/own listener/);
    expect(await frozen(replica.url)).toBe(false);
  }, 90_000);
});
