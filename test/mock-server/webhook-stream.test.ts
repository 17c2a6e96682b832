// streamWebhookEvents over real HTTP: an emitted event arrives as one server-sent message with its
// exact body and delivery headers that verify with the endpoint's secret (a v1 site without a
// callback URL included), the `events` filter, 422 for an unknown type, a reconnect with
// Last-Event-ID getting what it missed, and a reset or a load starting a new stream: no event of
// the sandbox before is sent again, and an id read before it gets the new sandbox's events from
// its first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../generated/runtime/client-runtime.js';
import type { WebhookStreamEvent } from '../../generated/sandbox-control/types.js';
import { mockClients, type MockClients } from '../../index.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';
import { openStream as openStreamOf } from './support/event-stream.js';

let mock: RunningMockServer;
let clients: MockClients;
beforeAll(async () => {
  mock = await startMockServer({ seed: 3, loopbackWebhooksOnly: true });
  clients = mockClients(mock);
});
afterAll(() => mock.close());

const openStream = (query = '', headers: Record<string, string> = {}) => openStreamOf(mock.url, query, headers);
/** The WebhookStreamEvent a message carries. */
const eventOf = (message: { data: string }) => JSON.parse(message.data) as WebhookStreamEvent;

describe('streamWebhookEvents', () => {
  it('streams an event with its exact body and headers signed with the site secret, for a site without a callback URL too', async () => {
    const stream = await openStream();
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    try {
      const sent = await clients.v1.sendSiteTestWebhook();
      const message = await stream.next();
      expect(message.event).toBe('webhook');
      const event = eventOf(message);
      expect(message.id).toMatch(new RegExp(`^[0-9a-f]{8}-${event.sequence}$`));
      expect(event).toMatchObject({ event_id: sent.body.data.eventId, event_type: 'webhook.test', family: 'v1' });
      expect(event.deliveries).toHaveLength(1);
      const [delivery] = event.deliveries;
      expect(delivery).toMatchObject({ delivery_id: sent.body.data.deliveryId, endpoint_url: null });
      expect(delivery!.headers['X-Event-Id']).toBe(event.event_id);
      expect(verifyWebhookSignature(event.body, delivery!.headers['X-Signature']!, mock.site.webhookSecret)).toBe(true);
      expect(JSON.parse(event.body)).toMatchObject({ eventId: event.event_id, type: 'webhook.test' });
      expect(message.data).not.toContain(mock.site.webhookSecret);
    } finally {
      stream.close();
    }
  });

  it('streams a v3 event to each subscribed endpoint, signed with that endpoint’s secret', async () => {
    const created = await clients.v3.createWebhookEndpoint({ body: { name: 'stream', url: `${mock.url}/__mock/webhooks/inbox`, events: ['api.test'] } });
    const stream = await openStream('?events=api.test');
    try {
      await clients.v3.sendTestWebhook({ body: {} });
      const event = eventOf(await stream.next());
      expect(event).toMatchObject({ event_type: 'api.test', family: 'v3' });
      expect(event.deliveries.map((delivery) => delivery.endpoint_id)).toEqual([created.body.result.endpoint.id]);
      expect(verifyWebhookSignature(event.body, event.deliveries[0]!.headers['X-Signature']!, created.body.result.endpoint.secret)).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('sends only the asked types, and refuses an unknown one with 422', async () => {
    const stream = await openStream('?events=deposit.paid');
    try {
      await clients.v1.sendSiteTestWebhook();
      const marker = await openStream('?events=webhook.test,deposit.paid');
      await clients.v1.sendSiteTestWebhook();
      expect((await marker.next()).data).toContain('webhook.test');
      marker.close();
      expect(stream.messages).toEqual([]);
    } finally {
      stream.close();
    }
    const refused = await openStream('?events=order.completed');
    expect(refused.response.status).toBe(422);
    expect(await refused.response.json()).toMatchObject({ error: { code: 'validation_error', details: { events: ['order.completed is not a webhook event type of the v3 or v1 contract'] } } });
  });

  it('replays what a reconnecting client missed after its Last-Event-ID', async () => {
    const first = await openStream('?events=webhook.test');
    await clients.v1.sendSiteTestWebhook();
    const seenMessage = await first.next();
    const seen = eventOf(seenMessage);
    first.close();
    const missed = await clients.v1.sendSiteTestWebhook();
    const again = await openStream('?events=webhook.test', { 'Last-Event-ID': seenMessage.id! });
    try {
      const event = eventOf(await again.next());
      expect(event.event_id).toBe(missed.body.data.eventId);
      expect(event.sequence).toBeGreaterThan(seen.sequence);
    } finally {
      again.close();
    }
  });
});

// Each reset takes another seed: with the same one, the new sandbox's events would have the ids
// of the old one's, and an old event sent again could not be told from a new one.
let resets = 0;
describe.each([
  ['a reset', async () => void (await clients.control.resetSandbox({ body: { seed: 100 + (resets += 1) } }))],
  ['a load', async () => void (await clients.control.importSandboxState({ body: (await clients.control.exportSandboxState()).body.result }))],
])('streamWebhookEvents after %s', (_, replaceSandbox) => {
  it('sends none of the sandbox before’s events to a client asking for every kept one (Last-Event-ID 0)', async () => {
    await clients.v1.sendSiteTestWebhook();
    await clients.v1.sendSiteTestWebhook();
    await replaceSandbox();
    const stream = await openStream('?events=webhook.test', { 'Last-Event-ID': '0' });
    try {
      const sent = await clients.v1.sendSiteTestWebhook();
      expect(eventOf(await stream.next())).toMatchObject({ event_id: sent.body.data.eventId, sequence: 1 });
    } finally {
      stream.close();
    }
  });

  it('gives a client reconnecting with an id read before it the new sandbox’s events from the first, and none it missed of the old', async () => {
    const first = await openStream('?events=webhook.test');
    await clients.v1.sendSiteTestWebhook();
    const seen = await first.next();
    first.close();
    await clients.v1.sendSiteTestWebhook(); // missed, but the old sandbox's
    await replaceSandbox();
    const fresh = [await clients.v1.sendSiteTestWebhook(), await clients.v1.sendSiteTestWebhook()];
    const again = await openStream('?events=webhook.test', { 'Last-Event-ID': seen.id! });
    try {
      const events = [eventOf(await again.next()), eventOf(await again.next())];
      expect(events.map((event) => event.event_id)).toEqual(fresh.map((sent) => sent.body.data.eventId));
      expect(events.map((event) => event.sequence)).toEqual([1, 2]);
    } finally {
      again.close();
    }
  });

  it('keeps a client connected through it, which then gets the new sandbox’s events', async () => {
    const stream = await openStream('?events=webhook.test');
    try {
      await replaceSandbox();
      const sent = await clients.v1.sendSiteTestWebhook();
      expect(eventOf(await stream.next())).toMatchObject({ event_id: sent.body.data.eventId, sequence: 1 });
    } finally {
      stream.close();
    }
  });
});
