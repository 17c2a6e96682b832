// The memory engine pays nothing for durability: it keeps no journal, so the sandbox builds no
// journal writer and answers are not wrapped (no record is encoded, nothing is flushed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { btcToUsdtOrder } from '../mock-server/support/exchange-order.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';

describe('the memory engine', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: 1 });
  });
  afterAll(() => server.close());

  it('keeps no journal and writes none, whatever the requests change', async () => {
    await btcToUsdtOrder(server, server.v3);
    expect(server.sandbox.store.engine).toBe('memory');
    expect(server.sandbox.store.journal).toBeUndefined();
    expect(server.sandbox.journal).toBeNull();
  });
});
