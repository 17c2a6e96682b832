// The library example of docs/library.md, verbatim (it imports the package by its name, as an
// integrator's test does): start the mock on port 0, create a deposit, pay it on the simulated
// chain, advance the clock, assert the signed webhook from the built-in inbox.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mockClients, startMockServer, verifyWebhookSignature, type RunningMockServer } from 'exchange-api-kit';

let mock: RunningMockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 42 });
});
afterAll(() => mock.close());

it('a paid deposit sends a signed deposit.paid webhook', async () => {
  const { control, v1As } = mockClients(mock);
  await control.freezeClock();
  // A site whose webhooks go to the mock's built-in inbox.
  const inbox = `${mock.url}/__mock/webhooks/inbox`;
  const { site, api_secret, webhook_secret } = (await control.createSite({ body: { callback_url: inbox } })).body.result;
  const v1 = v1As(site.api_key, api_secret);

  const deposit = (await v1.createDeposit({ body: { order_id: 'ORD-1', asset: 'BTC', amount: '0.0125' } })).body.data;
  await control.injectChainTransaction({ body: { network: deposit.network, address: deposit.address, amount: '0.0125' } });
  await control.advanceClock({ body: { duration: 'PT20M' } }); // two Bitcoin blocks: confirmed
  await control.runDueWebhooks();

  expect((await v1.getDeposit({ path: { uuid: deposit.uuid } })).body.data.status).toBe('paid');
  const { deliveries } = (await control.listInboxWebhooks({ query: { event_type: 'deposit.paid' } })).body.result;
  expect(deliveries).toHaveLength(1);
  const [hook] = deliveries;
  expect(hook?.signature_valid).toBe(true);
  expect(verifyWebhookSignature(hook!.body, hook!.headers['x-signature'] ?? '', webhook_secret)).toBe(true);
});
