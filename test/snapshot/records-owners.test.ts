// Whose the records of a sandbox state document are, over real HTTP: a webhook record or a limits
// record of a client, key or site the document lacks, a delivery of another client than its
// event's or to another client's endpoint, and a site's endpoint under another id are refused
// with 422 naming the record, the sandbox left as it was. A deleted endpoint's deliveries, which
// name it still, are what the mock exports and load.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import type { SandboxState, SandboxStateLimits, SandboxStateWebhooks } from '../../generated/sandbox-control/types.js';
import { siteEndpointId } from '../../mock-server/domain/webhooks/site-endpoint.js';
import { bearer, send } from '../mock-server/support/http.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';
import { exportState, expectRefusedUntouched, loadState } from './support/state-documents.js';

let source: TestServer;
let target: TestServer;
let tenant: ExchangeV3Client;
let tenantToken: string;
let endpointId: string;
let good: SandboxState;

beforeAll(async () => {
  [source, target] = await Promise.all([startTestServer({ seed: 81 }), startTestServer({ seed: 82 })]);
  for (const server of [source, target]) server.sandbox.stopDispatching();
  tenantToken = (await source.control.mintToken({ body: { scopes: ['webhooks:read', 'webhooks:write', 'webhooks:deliveries:read'] } })).body.result.token;
  tenant = new ExchangeV3Client({ baseUrl: source.url, token: tenantToken, retry: false });
  await source.control.createSite({ body: { name: 'Second site' } });
  const created = await send(source.url, '/api/v3/private/webhooks', {
    method: 'POST',
    headers: { ...bearer(tenantToken), 'content-type': 'application/json', 'Idempotency-Key': 'records-owners-0001' },
    body: JSON.stringify({ name: 'Orders', url: 'http://127.0.0.1:9/hook', events: ['api.test'] }),
  });
  endpointId = (created.json as { result: { endpoint: { id: string } } }).result.endpoint.id;
  await tenant.sendTestWebhook({ body: { endpoint_id: endpointId } });
  await source.v1.sendSiteTestWebhook(); // the default site's endpoint, event and delivery
  good = await exportState(source);
});
afterAll(async () => {
  await Promise.all([source.close(), target.close()]);
});

const withWebhooks = (doc: SandboxState, change: (webhooks: SandboxStateWebhooks) => Partial<SandboxStateWebhooks>): SandboxState => ({
  ...doc,
  webhooks: { ...doc.webhooks, ...change(doc.webhooks) },
});
const withLimits = (doc: SandboxState, change: (limits: SandboxStateLimits) => Partial<SandboxStateLimits>): SandboxState => ({
  ...doc,
  limits: { ...doc.limits, ...change(doc.limits) },
});
const tenantEndpoint = (webhooks: SandboxStateWebhooks) => webhooks.endpoints.find((endpoint) => endpoint.id === endpointId)!;
const siteEndpoint = (webhooks: SandboxStateWebhooks) => webhooks.endpoints.find((endpoint) => endpoint.mirrorsSite)!;
const tenantDelivery = (webhooks: SandboxStateWebhooks) => webhooks.deliveries.findIndex((delivery) => delivery.endpointId === endpointId);
const replaced = <T>(list: readonly T[], index: number, item: T): T[] => list.map((old, at) => (at === index ? item : old));
const otherId = '0b6e2f4a-8c1d-4e3f-a5b7-9c8d7e6f5a4b';

describe('a document whose records name an owner it lacks, or another owner than they must', () => {
  it('has the records each case changes', () => {
    expect(tenantDelivery(good.webhooks)).toBeGreaterThanOrEqual(0);
    expect(siteEndpoint(good.webhooks).clientId).toBe('site:1');
    expect(good.limits.meters.length).toBeGreaterThan(0);
    expect(good.limits.usage.length).toBeGreaterThan(0);
    expect(good.limits.idempotency.map((record) => record.caller)).toContain('key:2');
  });

  it.each<[string, (doc: SandboxState) => SandboxState, (doc: SandboxState) => string]>([
    ['an endpoint of no client', (doc) => withWebhooks(doc, (w) => ({ endpoints: [...w.endpoints, { ...tenantEndpoint(w), id: otherId, clientId: '99' }] })), (doc) => `webhooks.endpoints.${doc.webhooks.endpoints.length}.clientId`],
    ['an endpoint of no site', (doc) => withWebhooks(doc, (w) => ({ endpoints: [...w.endpoints, { ...siteEndpoint(w), id: otherId, clientId: 'site:9' }] })), (doc) => `webhooks.endpoints.${doc.webhooks.endpoints.length}.clientId`],
    ['an event of no client', (doc) => withWebhooks(doc, (w) => ({ events: [...w.events, { ...w.events[0]!, id: otherId, clientId: '99', deliveryIds: [] }] })), (doc) => `webhooks.events.${doc.webhooks.events.length}.clientId`],
    [
      "a delivery of another client than its event's",
      (doc) => withWebhooks(doc, (w) => ({ deliveries: replaced(w.deliveries, tenantDelivery(w), { ...w.deliveries[tenantDelivery(w)]!, clientId: '1' }) })),
      (doc) => `webhooks.deliveries.${tenantDelivery(doc.webhooks)}.clientId`,
    ],
    [
      "a delivery to another client's endpoint",
      (doc) =>
        withWebhooks(doc, (w) => ({
          endpoints: [...w.endpoints, { ...tenantEndpoint(w), id: otherId, clientId: '1' }],
          deliveries: replaced(w.deliveries, tenantDelivery(w), { ...w.deliveries[tenantDelivery(w)]!, endpointId: otherId }),
        })),
      (doc) => `webhooks.deliveries.${tenantDelivery(doc.webhooks)}.endpointId`,
    ],
    [
      "a client's endpoint under a site's endpoint id",
      (doc) => withWebhooks(doc, (w) => ({ endpoints: [...w.endpoints, { ...tenantEndpoint(w), id: siteEndpointId({ id: 2 }) }] })),
      (doc) => `webhooks.endpoints.${doc.webhooks.endpoints.length}.id`,
    ],
    [
      "a site's endpoint under another id",
      (doc) => withWebhooks(doc, (w) => ({ endpoints: w.endpoints.map((e) => (e.mirrorsSite ? { ...e, id: otherId } : e)) })),
      (doc) => `webhooks.endpoints.${doc.webhooks.endpoints.findIndex((e) => e.mirrorsSite)}.id`,
    ],
    [
      "a client's endpoint that mirrors a site",
      (doc) => withWebhooks(doc, (w) => ({ endpoints: w.endpoints.map((e) => (e.id === endpointId ? { ...e, mirrorsSite: true } : e)) })),
      (doc) => `webhooks.endpoints.${doc.webhooks.endpoints.findIndex((e) => e.id === endpointId)}.mirrorsSite`,
    ],
    ['a meter of no key', (doc) => withLimits(doc, (l) => ({ meters: [...l.meters, { ...l.meters[0]!, key: '99' }] })), (doc) => `limits.meters.${doc.limits.meters.length}.key`],
    ['a usage cell of no key', (doc) => withLimits(doc, (l) => ({ usage: [...l.usage, { ...l.usage[0]!, key: '99' }] })), (doc) => `limits.usage.${doc.limits.usage.length}.key`],
    ['a nonce of no key', (doc) => withLimits(doc, () => ({ nonces: [{ key: '99:nonce-0001', expiresAtMs: doc.limits.meters[0]!.expiresAtMs }] })), () => 'limits.nonces.0.key'],
    ['an idempotency record of no key', (doc) => withLimits(doc, (l) => ({ idempotency: [{ ...l.idempotency[0]!, caller: 'key:99' }] })), () => 'limits.idempotency.0.caller'],
    ['an idempotency record of no site', (doc) => withLimits(doc, (l) => ({ idempotency: [{ ...l.idempotency[0]!, caller: 'site:9' }] })), () => 'limits.idempotency.0.caller'],
  ])('refuses %s', async (_case, change, field) => {
    await expectRefusedUntouched(target, change(good), field(good));
  });
});

describe("a deleted endpoint's deliveries", () => {
  it('name the endpoint still, and the document loads', async () => {
    expect((await tenant.deleteWebhookEndpoint({ path: { webhook: endpointId } })).status).toBe(200);
    const document = await exportState(source);
    expect(document.webhooks.endpoints.map((endpoint) => endpoint.id)).not.toContain(endpointId);
    expect(document.webhooks.deliveries.filter((delivery) => delivery.endpointId === endpointId)).toHaveLength(1);
    await loadState(target, document);
    const loaded = new ExchangeV3Client({ baseUrl: target.url, token: tenantToken, retry: false });
    expect((await loaded.listWebhookDeliveries()).body.result.deliveries.map((delivery) => delivery.endpoint.id)).toEqual([endpointId]);
  });
});
