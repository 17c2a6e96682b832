// An event type no machine emits is the family's test webhook: v3 sendTestWebhook with that
// event type (to an endpoint subscribed to it; one at the mock's inbox is registered when the
// key has none), v1 sendSiteTestWebhook (the site's callback). Returns the event's id.
import type { WebhookEventType } from '../../generated/exchange-v3/types.js';
import type { MockSession } from './mock-session.js';
import type { Family } from './trigger-plans.js';

export async function driveTestWebhook(session: MockSession, family: Family, type: string, log: (line: string) => void): Promise<string> {
  if (family === 'v1') {
    const sent = (await (await session.v1()).sendSiteTestWebhook()).body.data;
    if (sent.type !== type) throw new Error(`the v1 test webhook is ${sent.type}, not ${type}`);
    log(`sent the site's test webhook: event ${sent.eventId}, delivery ${sent.deliveryId}`);
    return sent.eventId;
  }
  const v3 = await session.v3();
  const endpoints = (await v3.listWebhookEndpoints()).body.result.endpoints;
  if (!endpoints.some((endpoint) => endpoint.status === 'active' && (endpoint.events as readonly string[]).includes(type))) {
    const created = (await v3.createWebhookEndpoint({ body: { name: 'trigger → inbox', url: session.inboxUrl, events: [type as WebhookEventType] } })).body.result.endpoint;
    log(`registered webhook endpoint ${created.id} for ${type} → the mock's inbox`);
  }
  const sent = (await v3.sendTestWebhook({ body: { event_type: type as WebhookEventType } })).body.result;
  log(`sent a test webhook: event ${sent.event.id}, deliveries ${sent.deliveries.map((delivery) => delivery.id).join(', ')}`);
  return sent.event.id;
}
