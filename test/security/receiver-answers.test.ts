// Answers a hostile receiver can give that node's HTTP client reads in its own way: each must end
// the attempt with a record the contract can show, and free its place in the delivery pool. The
// receiver speaks raw bytes on loopback (a node:http server would refuse to write most of them)
// and keeps its connections open, as one that means to stall the mock would.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { deliverTestEvent } from './support/webhooks.js';

/** The raw answer to a POST on each path. */
const answers: Record<string, string> = {
  '/switching-protocols': 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
};

let mock: TestServer;
let receiver: Server;
let receiverUrl = '';
const sockets = new Set<Socket>();

beforeAll(async () => {
  receiver = createServer((socket) => {
    sockets.add(socket);
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
