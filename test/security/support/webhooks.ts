// Webhook helpers of the security suites: a resolver tests hand to the mock (names of their
// choosing resolve to the addresses they choose, nothing else resolves, no DNS query leaves the
// machine), endpoints registered by a fresh client each, and one test delivery sent and read back.
import type { ExchangeV3Client } from '../../../generated/exchange-v3/client.js';
import type { WebhookDelivery } from '../../../generated/exchange-v3/types.js';
import type { Resolver } from '../../../mock-server/dispatch/http-transport.js';
import type { TestServer } from '../../mock-server/support/server.js';
import { v3Client } from '../../mock-server/support/keys.js';

/**
 * A resolver from a fixed table; `calls` counts the look-ups of each name. A list answers its
 * n-th entry on the n-th look-up (its last one from then on): a name that changes its answer.
 */
export function tableResolver(table: Record<string, string | string[]>): Resolver & { calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const resolve = async (hostname: string) => {
    const count = calls.get(hostname) ?? 0;
    calls.set(hostname, count + 1);
    const entry = table[hostname];
    const address = Array.isArray(entry) ? entry[Math.min(count, entry.length - 1)] : entry;
    if (address === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
  return Object.assign(resolve, { calls });
}

/** A client of its own (a freshly minted key is a new client), so endpoints never hit the per-client cap. */
export async function freshClient(server: TestServer): Promise<ExchangeV3Client> {
  const minted = await server.control.mintToken();
  return v3Client(server, minted.body.result.token);
}

/** Registers `url` for the test event, sends one test event and returns its delivery after the attempt. */
export async function deliverTestEvent(server: TestServer, url: string): Promise<WebhookDelivery> {
  const client = await freshClient(server);
  const endpoint = (await client.createWebhookEndpoint({ body: { name: 'security', url, events: ['api.test'] } })).body.result.endpoint;
  const sent = (await client.sendTestWebhook({ body: { endpoint_id: endpoint.id } })).body.result;
  await server.control.runDueWebhooks();
  const deliveryId = sent.deliveries[0]!.id;
  return (await client.getWebhookDelivery({ path: { delivery: deliveryId } })).body.result.delivery;
}
