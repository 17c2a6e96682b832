// Timers on a running clock: a payment window or a deposit lifetime that ends while nobody reads
// the record and nobody advances the clock still changes the record, and its webhook goes out,
// because the running server ticks the domains' due queues on its dispatch beat.
//
// How time passes here: the sandbox's virtual clock reads a real-time source the test owns
// (SandboxOptions.realNow), and the test moves that source forward. That is what the passing of
// real time looks like to the mock: no advance, no advance listeners, no read of the record. The
// dispatch beat itself is Node's real timer, so the test waits (bounded) for the delivery.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmacSigner, depositV1SignatureScheme, DepositV1Client } from '../../generated/deposit-v1/client.js';
import { depositMachine, orderMachine } from '../../generated/machines.js';
import { placeOrder, subscribeInbox } from './orders-helpers.js';
import { inboxUrlOf, startTestServer, type TestServer } from './support/server.js';

let realMs = Date.parse('2026-11-21T12:00:00.000Z');
let server: TestServer;

beforeAll(async () => {
  // The dispatch loop stays on: it is what is under test.
  server = await startTestServer({ seed: 4242, realNow: () => realMs });
});

afterAll(async () => {
  await server.close();
});

/** The inbox's deliveries of this event type, once there are `count` of them (the beat runs every 200 ms; bounded). */
async function delivered(type: string, count = 1) {
  for (let attempt = 0; attempt < 150; attempt += 1) {
    const deliveries = (await server.control.listInboxWebhooks({ query: { event_type: type } })).body.result.deliveries;
    if (deliveries.length >= count) return deliveries;
    await sleep(100);
  }
  throw new Error(`no ${type} delivery reached the inbox`);
}

describe('on a running clock, without reads or advances', () => {
  it('expires an unpaid order when its payment window ends, and sends order.status_changed', async () => {
    await subscribeInbox(server);
    const order = await placeOrder(server);
    const windowMs = orderMachine.timers.payment_window!.seconds! * 1000;

    realMs += windowMs;
    const [delivery] = await delivered('order.status_changed');
    expect(JSON.parse(delivery!.body)).toMatchObject({
      type: 'order.status_changed',
      resource: { type: 'order', id: order.id },
      data: { previous_status: 'awaiting_payment', status: 'expired', order: { id: order.id, status: 'expired' } },
    });
    expect(delivery!.signature_valid).toBe(true);
    // Taken at the instant the window ended, not when the beat noticed it.
    const status = (await server.v3.getOrderStatus({ path: { order: order.public_id } })).body.result.status;
    expect(status.history.at(-1)).toEqual({ from: 'awaiting_payment', to: 'expired', event: 'expire', at: order.expires_at, actor: 'system' });
  });

  it("expires a deposit when its lifetime ends, and sends deposit.expired to the site's callback", async () => {
    const created = await server.control.createSite({ body: { callback_url: inboxUrlOf(server) } });
    const { site, api_secret } = created.body.result;
    const signer = createHmacSigner(depositV1SignatureScheme, { key: site.api_key, secret: api_secret }, { now: () => server.sandbox.clock.nowMs() });
    const v1 = new DepositV1Client({ baseUrl: server.url, signer, retry: false });
    const deposit = (await v1.createDeposit({ body: { order_id: 'timer-1', asset: 'BTC', amount: '0.01' } })).body.data;
    const lifetimeMs = depositMachine.timers.lifetime!.seconds! * 1000;

    realMs += lifetimeMs;
    const [delivery] = await delivered('deposit.expired');
    const body = JSON.parse(delivery!.body) as { data: { deposit: { uuid: string; status: string; updatedAt: string } } };
    expect(body.data.deposit).toMatchObject({ uuid: deposit.uuid, status: 'expired', updatedAt: deposit.expiresAt });
  });
});
