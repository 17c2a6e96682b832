// /private/client reports the client's own activity, read from its records as they stand: order
// counters from its orders (active: not in a final status of the order machine) and its balance,
// the partner commission its completed orders earned (the same figure getPartner shows).
import { describe, expect, it } from 'vitest';
import { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import { force, placeOrder } from './orders-helpers.js';
import { useFrozenSandbox, type TestServer } from './support/server.js';

let server: TestServer;
useFrozenSandbox({ seed: 61 }, (started) => {
  server = started;
});

describe('/private/client', () => {
  it('counts the orders of a new client and shows the commission its completed order earned', async () => {
    const minted = (await server.control.mintToken()).body.result;
    const client = new ExchangeV3Client({ baseUrl: server.url, token: minted.token, retry: false });
    const clientId = String(minted.key.client.id);
    expect((await client.getClient()).body.result).toMatchObject({ balance: { currency: 'USDT', amount: '0' }, orders: { total: 0, active: 0, completed: 0 } });

    const completed = await placeOrder(server, {}, { clientId });
    const cancelled = await placeOrder(server, {}, { clientId });
    await placeOrder(server, {}, { clientId });
    await force(server, completed.id, ['pay', 'process', 'complete']);
    await force(server, cancelled.id, ['cancel']);

    const profile = (await client.getClient()).body.result;
    expect(profile.orders).toEqual({ total: 3, active: 1, completed: 1 });
    const partner = (await client.getPartner()).body.result.partner;
    expect(profile.balance).toEqual(partner.balance);
    expect(Number(profile.balance.amount)).toBeGreaterThan(0);
    // Another client's orders are not counted.
    expect((await server.v3.getClient()).body.result.orders).toEqual({ total: 0, active: 0, completed: 0 });
  });
});
