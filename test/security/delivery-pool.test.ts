// One delivery pool for the whole sandbox: however deliveries are triggered (each API call that
// emits an event, run-due, a clock advance, the real-time ticker) no more attempts are in
// flight at once than the pool's size, and every one of them is still made. A receiver on
// loopback holds each request briefly and counts how many are open at the same time.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultDeliveryConcurrency } from '../../mock-server/dispatch/delivery-pool.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { freshClient } from './support/webhooks.js';

let mock: TestServer;
let receiver: Server;
let receiverUrl = '';
let open = 0;
let mostOpen = 0;
let answered = 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    req.resume();
    // Held long enough that attempts would pile up if nothing bounded them.
    setTimeout(() => {
      open -= 1;
      answered += 1;
      res.writeHead(204).end();
    }, 25);
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  mock = await startTestServer({ seed: 71 });
});

afterAll(async () => {
  await mock?.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

it('holds the in-flight limit for 200 test events sent at once, and delivers them all', async () => {
  const events = 200;
  const client = await freshClient(mock);
  const endpoint = (await client.createWebhookEndpoint({ body: { name: 'pool', url: receiverUrl, events: ['api.test'] } })).body.result.endpoint;
  // Every call starts a dispatch run of its own; run-due and an advance start more alongside.
  await Promise.all([
    ...Array.from({ length: events }, () => client.sendTestWebhook({ body: { endpoint_id: endpoint.id } })),
    mock.control.runDueWebhooks(),
    mock.control.advanceClock({ body: { seconds: 1 } }),
  ]);
  await mock.control.runDueWebhooks();

  expect(answered).toBe(events);
  expect(mostOpen).toBe(defaultDeliveryConcurrency);
  expect(mock.sandbox.egress.pool.inFlight).toBe(0);
  let delivered = 0;
  for await (const delivery of client.listWebhookDeliveriesAll({ query: { per_page: 100 } })) if (delivery.status === 'delivered') delivered += 1;
  expect(delivered).toBe(events);
});
