// One delivery pool for the whole sandbox: however deliveries are triggered (each API call that
// emits an event, run-due, a clock advance, the real-time ticker) no more attempts are in
// flight at once than the pool's size, and every one of them is still made. A receiver on
// loopback holds every request until the test lets go, counting how many are open at once.
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
let holding = true;
const held: (() => void)[] = [];

/** Resolves once `check` holds, looking again every few milliseconds. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    req.resume();
    const answer = (): void => {
      open -= 1;
      answered += 1;
      res.writeHead(204).end();
    };
    // Held until the test lets go, so attempts pile up if nothing bounds them.
    if (holding) held.push(answer);
    else answer();
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
    mock.control.advanceClock({ body: { seconds: 1 } }),
  ]);
  await until(() => open === defaultDeliveryConcurrency);
  // Room for any attempt beyond the limit to show up before the receiver lets go: another
  // advance (a run of its own) and the real-time ticker's beats.
  await mock.control.advanceClock({ body: { seconds: 1 } });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(open).toBe(defaultDeliveryConcurrency);
  expect(mock.sandbox.egress.pool.inFlight).toBe(defaultDeliveryConcurrency);

  holding = false;
  for (const answer of held.splice(0)) answer();
  await mock.control.runDueWebhooks();
  expect(answered).toBe(events);
  expect(mostOpen).toBe(defaultDeliveryConcurrency);
  expect(mock.sandbox.egress.pool.inFlight).toBe(0);
  let delivered = 0;
  for await (const delivery of client.listWebhookDeliveriesAll({ query: { per_page: 100 } })) if (delivery.status === 'delivered') delivered += 1;
  expect(delivered).toBe(events);
});
