// The built-in webhook inbox cannot exhaust memory: its records are bounded in bytes as they
// appear in the listing (the oldest go first, the newest is always kept), so the listing
// answers whatever was posted; and with an admin token, nobody without it can post to it,
// read it or empty it, while the mock's own deliveries still reach it in-process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, send } from '../mock-server/support/http.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { deliverTestEvent } from './support/webhooks.js';

const inboxPath = '/__mock/webhooks/inbox';
const inboxBytes = 1024 * 1024;

describe('an inbox bounded to 1 MiB', () => {
  let mock: TestServer;
  beforeAll(async () => {
    mock = await startTestServer({ seed: 81, webhookInboxBytes: inboxBytes });
    mock.sandbox.stopDispatching();
  });
  afterAll(async () => {
    await mock?.close();
  });

  async function listing(): Promise<{ bytes: number; bodies: string[] }> {
    const response = await send(mock.url, inboxPath);
    expect(response.status).toBe(200);
    const deliveries = (response.json as { result: { deliveries: { body: string }[] } }).result.deliveries;
    return { bytes: Buffer.byteLength(JSON.stringify(deliveries)), bodies: deliveries.map((delivery) => delivery.body) };
  }

  it('keeps the newest records within the bound as 30 posts of 100 KiB arrive', async () => {
    await mock.control.clearInbox();
    for (let n = 1; n <= 30; n += 1) {
      const body = `${String(n).padStart(3, '0')}:${'x'.repeat(100 * 1024)}`;
      expect((await send(mock.url, inboxPath, { method: 'POST', headers: { 'content-type': 'text/plain' }, body })).status).toBe(204);
    }
    const { bytes, bodies } = await listing();
    expect(bytes).toBeLessThanOrEqual(inboxBytes);
    const kept = bodies.map((body) => Number(body.slice(0, 3)));
    expect(kept.length).toBeLessThan(30);
    // The newest, in order, with nothing missing in between: only the oldest went.
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, index) => 31 - kept.length + index));
  });

  it('counts what escaping adds: control characters take six bytes each in the listing', async () => {
    await mock.control.clearInbox();
    // 300 KiB of \u0001 lists as 1.8 MiB: more than the whole bound, so it is kept alone.
    for (const body of ['small one', '\u0001'.repeat(300 * 1024)]) {
      expect((await send(mock.url, inboxPath, { method: 'POST', headers: { 'content-type': 'text/plain' }, body })).status).toBe(204);
    }
    const { bodies } = await listing();
    expect(bodies.map((body) => body.length)).toEqual([300 * 1024]);
  });
});

describe('an inbox behind an admin token', () => {
  const adminToken = 'admin-token-inbox-0123456789';
  let mock: TestServer;
  beforeAll(async () => {
    mock = await startTestServer({ seed: 82, adminToken });
    mock.sandbox.stopDispatching();
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('refuses posting, reading and emptying without the token', async () => {
    for (const method of ['POST', 'GET', 'DELETE']) {
      const response = await send(mock.url, inboxPath, { method, ...(method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}) });
      expect([method, response.status]).toEqual([method, 401]);
    }
    // A tenant's key is not the admin token either.
    expect((await send(mock.url, inboxPath, { headers: bearer(mock.token) })).status).toBe(401);
  });

  it("still receives the mock's own deliveries (in-process), which only the admin can read", async () => {
    const delivery = await deliverTestEvent(mock, `${mock.url}${inboxPath}`);
    expect(delivery.status).toBe('delivered');
    const records = (await mock.control.listInboxWebhooks()).body.result.deliveries;
    expect(records.map((record) => record.delivery_id)).toEqual([delivery.id]);
  });
});
