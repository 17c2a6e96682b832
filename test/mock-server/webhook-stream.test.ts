// streamWebhookEvents over real HTTP: an emitted event arrives as one server-sent message with its
// exact body and delivery headers that verify with the endpoint's secret (a v1 site without a
// callback URL included), the `events` filter, 422 for an unknown type, and a reconnect with
// Last-Event-ID getting what it missed.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../generated/runtime/client-runtime.js';
import type { WebhookStreamEvent } from '../../generated/sandbox-control/types.js';
import { mockClients, type MockClients } from '../../index.js';
import { startMockServer, type RunningMockServer } from '../../mock-server/server.js';

let mock: RunningMockServer;
let clients: MockClients;
beforeAll(async () => {
  mock = await startMockServer({ seed: 3, loopbackWebhooksOnly: true });
  clients = mockClients(mock);
});
afterAll(() => mock.close());

/** Opens the stream; `next()` resolves with the next message, `close()` ends it. */
async function openStream(query = '', headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(`${mock.url}/__mock/webhooks/stream${query}`, { headers, signal: controller.signal });
  const messages: EventSourceMessage[] = [];
  const waiters: (() => void)[] = [];
  const parser = createParser({
    onEvent: (message) => {
      messages.push(message);
      waiters.splice(0).forEach((wake) => wake());
    },
  });
  if (response.ok) {
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of response.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
      } catch {
        // closed by the test
      }
    })();
  }
  return {
    response,
    messages,
    async next(): Promise<EventSourceMessage> {
      while (messages.length === 0) await new Promise<void>((resolve) => waiters.push(resolve));
      return messages.shift()!;
    },
    close: () => controller.abort(),
  };
}

describe('streamWebhookEvents', () => {
  it('streams an event with its exact body and headers signed with the site secret, for a site without a callback URL too', async () => {
    const stream = await openStream();
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    try {
      const sent = await clients.v1.sendSiteTestWebhook();
      const message = await stream.next();
      expect(message.event).toBe('webhook');
      const event = JSON.parse(message.data) as WebhookStreamEvent;
      expect(message.id).toBe(String(event.sequence));
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
      const event = JSON.parse((await stream.next()).data) as WebhookStreamEvent;
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
    const seen = JSON.parse((await first.next()).data) as WebhookStreamEvent;
    first.close();
    const missed = await clients.v1.sendSiteTestWebhook();
    const again = await openStream('?events=webhook.test', { 'Last-Event-ID': String(seen.sequence) });
    try {
      const event = JSON.parse((await again.next()).data) as WebhookStreamEvent;
      expect(event.event_id).toBe(missed.body.data.eventId);
      expect(event.sequence).toBeGreaterThan(seen.sequence);
    } finally {
      again.close();
    }
  });
});
