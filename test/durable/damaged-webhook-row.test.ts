// A sqlite: file whose webhook delivery row was damaged by hand (or by a disk) keeps the mock
// up: the clock's advance starts a dispatch run at once, and that run reading the row failed with
// nothing to catch it, which ended the process and every tenant's sandbox with it. The row stays
// damaged (its delivery is not attempted); the API answers as before.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStore } from '../../mock-server/store/open-store.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';

const folder = mkdtempSync(join(tmpdir(), 'kit-damaged-row-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A mock on the file, closed with its store after `use`. */
async function onFile<T>(file: string, use: (mock: TestServer) => Promise<T>): Promise<T> {
  const store = await openStore(`sqlite:${file}`);
  const mock = await startTestServer({ seed: 93, store });
  try {
    mock.sandbox.stopDispatching();
    return await use(mock);
  } finally {
    await mock.close();
    await store.close();
  }
}

it('a dispatch run that cannot read a delivery does not end the process', async () => {
  const file = join(folder, 'sandbox.db');
  await onFile(file, async (mock) => {
    await mock.control.freezeClock();
    // Nothing listens on port 9: the delivery's first attempt fails and its retry waits.
    const endpoint = (await mock.v3.createWebhookEndpoint({ body: { name: 'gone', url: 'http://127.0.0.1:9/hook', events: ['api.test'] } })).body.result.endpoint;
    await mock.v3.sendTestWebhook({ body: { endpoint_id: endpoint.id } });
    await mock.control.runDueWebhooks();
  });
  const db = new Database(file);
  expect(db.prepare("UPDATE webhook_deliveries SET doc = '{'").run().changes).toBe(1);
  db.close();

  await onFile(file, async (mock) => {
    const rejections: unknown[] = [];
    const record = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', record);
    try {
      await mock.control.advanceClock({ body: { seconds: 3600 } });
      await new Promise((resolve) => setTimeout(resolve, 200)); // the run the advance started
    } finally {
      process.off('unhandledRejection', record);
    }
    expect(rejections).toEqual([]);
    expect((await mock.v3.privatePing()).status).toBe(200);
  });
});
