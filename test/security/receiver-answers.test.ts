// Answers a hostile receiver can give that node's HTTP client reads in its own way: each must end
// the attempt with a record the contract can show, and free its place in the delivery pool. The
// receiver speaks raw bytes on loopback (a node:http server would refuse to write most of them)
// and keeps its connections open, as one that means to stall the mock would.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { deliverTestEvent, freshClient } from './support/webhooks.js';

/** The raw answer to a POST on each path. */
const answers: Record<string, string> = {
  '/switching-protocols': 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
  '/status-999': 'HTTP/1.1 999 Odd\r\nContent-Length: 2\r\n\r\nok',
  '/status-000': 'HTTP/1.1 000 Odd\r\nContent-Length: 2\r\n\r\nok',
  '/status-099': 'HTTP/1.1 099 Odd\r\nContent-Length: 2\r\n\r\nok',
  '/header-flood': `HTTP/1.1 200 OK\r\n${'X-Flood: '.concat('f'.repeat(1000), '\r\n').repeat(100)}Content-Length: 0\r\n\r\n`,
};

let mock: TestServer;
let receiver: Server;
let receiverUrl = '';
const sockets = new Set<Socket>();

beforeAll(async () => {
  receiver = createServer((socket) => {
    sockets.add(socket);
    // The mock hangs up on the answers it refuses: a reset is expected here.
    socket.on('error', () => undefined);
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      const path = head.split(' ')[1] ?? '';
      head = '';
      socket.write(answers[path] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  mock = await startTestServer({ seed: 74 });
  mock.sandbox.stopDispatching();
});

afterAll(async () => {
  await mock?.close();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => receiver.close(resolve));
});

it('records a 101 that switches protocols as the answer, not an attempt that never ends', async () => {
  const delivery = await deliverTestEvent(mock, `${receiverUrl}/switching-protocols`);
  expect(delivery.status).toBe('retrying');
  expect(delivery.response).toMatchObject({ status: 101, body: '' });
  expect(delivery.error).toBeNull();
  expect(mock.sandbox.egress.pool.inFlight).toBe(0);
});

it.each(['/status-999', '/status-000', '/status-099'])('records an answer whose status no HTTP answer has (%s) as an invalid response', async (path) => {
  const client = await freshClient(mock);
  const endpoint = (await client.createWebhookEndpoint({ body: { name: 'odd status', url: `${receiverUrl}${path}`, events: ['api.test'] } })).body.result.endpoint;
  await client.sendTestWebhook({ body: { endpoint_id: endpoint.id } });
  await mock.control.runDueWebhooks();
  // The tenant's own listing and the delivery itself stay within the contract (strict mode checks).
  const [delivery] = (await client.listWebhookDeliveries({ query: { 'filter[endpoint_id]': endpoint.id } })).body.result.deliveries;
  expect(delivery).toMatchObject({ status: 'retrying', response: null, error: { code: 'invalid_response' } });
  expect(delivery!.error?.message).toMatch(/not an HTTP status/);
  expect((await client.getWebhookDelivery({ path: { delivery: delivery!.id } })).body.result.delivery.error?.code).toBe('invalid_response');
});

it('records an answer whose headers overflow node’s limit as an invalid response', async () => {
  const delivery = await deliverTestEvent(mock, `${receiverUrl}/header-flood`);
  expect(delivery).toMatchObject({ status: 'retrying', response: null, error: { code: 'invalid_response' } });
});
