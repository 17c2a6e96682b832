// A receiver's answer is read as a stream and cut at the cap: the mock keeps the first bytes
// for the delivery record and closes the connection instead of reading a huge body. The
// receiver on loopback offers 256 MiB, written as fast as the mock reads it, and counts what
// it managed to write before the mock hung up.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { deliverTestEvent } from './support/webhooks.js';

const offeredBytes = 256 * 1024 * 1024;
const chunk = Buffer.alloc(64 * 1024, 'a');

let mock: TestServer;
let receiver: Server;
let receiverUrl = '';
let written = 0;
let hungUp: Promise<void>;

beforeAll(async () => {
  let noteHangUp: () => void = () => undefined;
  hungUp = new Promise((resolve) => (noteHangUp = resolve));
  receiver = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(offeredBytes) });
    res.on('close', noteHangUp);
    const pump = (): void => {
      // Only as fast as the mock reads: a reader that reads everything gets everything.
      while (written < offeredBytes && !res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (written >= offeredBytes) res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/huge-answer`;
  mock = await startTestServer({ seed: 73 });
  mock.sandbox.stopDispatching();
});

afterAll(async () => {
  await mock?.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

it('keeps the first bytes of a 256 MiB answer and hangs up long before its end', async () => {
  const delivery = await deliverTestEvent(mock, receiverUrl);
  await hungUp;
  expect(delivery.status).toBe('delivered');
  expect(delivery.response?.status).toBe(200);
  expect(delivery.response?.body).toMatch(/^a+$/);
  // What the kernel's socket buffers hold besides the cap is a few MiB, not hundreds.
  expect(written).toBeLessThan(32 * 1024 * 1024);
});
