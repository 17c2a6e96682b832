// streamWebhookEvents (GET /__mock/webhooks/stream): the sandbox's webhook feed as server-sent
// events, for `exchange-api-kit listen`. Every message is one event with its exact body and, per
// delivery, the headers the dispatcher would send, signed with that endpoint's current secret
// (dispatch/sign.ts), so a copy forwarded elsewhere verifies like the real delivery. A client
// reconnecting with Last-Event-ID first gets the backlog after it; with the id of an earlier
// sandbox (before a reset or load) or of an earlier mock process, the current sandbox's backlog
// from its start (domain/webhooks/event-feed.ts).
import { webhookValidators as depositV1WebhookValidators } from '../../generated/deposit-v1/validators.js';
import { webhookValidators as exchangeV3WebhookValidators } from '../../generated/exchange-v3/validators.js';
import type { HandlerReply, SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import type { WebhookStreamDelivery, WebhookStreamEvent } from '../../generated/sandbox-control/types.js';
import { deliveryHeaders } from '../dispatch/sign.js';
import type { FeedItem } from '../domain/webhooks/event-feed.js';
import { isSiteClientId } from '../domain/webhooks/site-endpoint.js';
import { HttpError } from '../http/http-error.js';
import { streamedReply } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

/** A comment line this often keeps an idle stream open through proxies and load balancers. */
const heartbeatMs = 15_000;
/** What a client waits before reconnecting after the stream drops (the SSE `retry:` field). */
const reconnectMs = 1_000;

const knownEventTypes = new Set([...Object.keys(exchangeV3WebhookValidators), ...Object.keys(depositV1WebhookValidators)]);

export function webhookStreamHandlers(sandbox: Sandbox): Pick<SandboxControlHandlers, 'streamWebhookEvents'> {
  return {
    streamWebhookEvents: (request, context) => {
      const wanted = request.query.events;
      const unknown = (wanted ?? []).filter((type) => !knownEventTypes.has(type));
      if (unknown.length > 0) {
        throw new HttpError('validation_error', 'Unknown webhook event types.', {
          'query.events': unknown.map((type) => `${type} is not a webhook event type of the v3 or v1 contract`),
        });
      }
      const { req, res } = context;
      const accepts = (item: FeedItem) => wanted === undefined || wanted.includes(item.event.type);
      const send = async (item: FeedItem): Promise<void> => {
        const message = await present(sandbox, item);
        // An item queued before a reset or load is the old sandbox's by now: it is not sent.
        if (res.writableEnded || res.destroyed || !sandbox.webhookFeed.isCurrent(item)) return;
        res.write(`id: ${item.position}\nevent: webhook\ndata: ${JSON.stringify(message)}\n\n`);
      };

      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
      res.write(`retry: ${reconnectMs}\n: exchange-api-kit webhook stream\n\n`);
      // Messages go out one at a time, in feed order, even though presenting one awaits the store.
      let queue = Promise.resolve();
      const enqueue = (item: FeedItem): void => {
        if (accepts(item)) queue = queue.then(() => send(item)).catch(() => undefined);
      };
      const lastSeen = req.get('last-event-id');
      if (lastSeen !== undefined) for (const item of sandbox.webhookFeed.after(lastSeen)) enqueue(item);
      const unsubscribe = sandbox.webhookFeed.subscribe(enqueue);
      const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), heartbeatMs);
      heartbeat.unref();
      res.on('close', () => {
        unsubscribe();
        clearInterval(heartbeat);
      });
      return streamedReply<HandlerReply<'streamWebhookEvents'>>(200);
    },
  };
}

async function present(sandbox: Sandbox, { sequence, event, deliveries }: FeedItem): Promise<WebhookStreamEvent> {
  const signed: WebhookStreamDelivery[] = [];
  for (const delivery of deliveries) {
    // The endpoint's current secret signs, as on every attempt; one deleted since has none.
    const endpoint = await sandbox.webhooks.store.getEndpoint(delivery.endpointId);
    if (endpoint === undefined) continue;
    signed.push({
      delivery_id: delivery.id,
      endpoint_id: endpoint.id,
      endpoint_url: endpoint.url === '' ? null : endpoint.url,
      headers: deliveryHeaders({
        body: event.body,
        secret: endpoint.secret,
        eventId: event.id,
        eventType: event.type,
        deliveryId: delivery.id,
        attempt: 1,
        now: sandbox.clock.now(),
      }),
    });
  }
  return {
    sequence,
    event_id: event.id,
    event_type: event.type,
    family: isSiteClientId(event.clientId) ? 'v1' : 'v3',
    created_at: event.createdAt.toISOString(),
    body: event.body,
    deliveries: signed,
  };
}
