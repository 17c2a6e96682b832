// Webhook delivery (v3, --allow-writes): the run's local receiver is registered as an endpoint
// (which also checks idempotency of the creation) and a test event is sent to it; the delivery
// must arrive, carry the contract's signature header verified with the endpoint's secret, and
// match the event's schema. The endpoint is renamed and its secret rotated, and a second test
// event must verify with the new secret. The endpoint stays subscribed to every event type until the end of
// the run, so the order webhooks of the exchange flow reach the receiver too (judged by
// checkReceivedWebhooks); it is deleted at the end.
import { families, routeOf } from '../contract/families.js';
import type { RunContext } from '../context.js';
import { headerValue, type WebhookReceiver } from '../http/webhook-receiver.js';
import { isRecord } from '../judge/response.js';
import { payloadProblems, signatureProblems } from '../judge/webhook.js';
import { sendIdempotent } from './idempotency.js';
import { flowStep } from './flow-step.js';
import { describeError, parseBody, successProblems } from './judge-call.js';
import { missingCredentials } from './operations.js';

const flow = 'flow:webhooks';
const family = families.v3;

export async function checkWebhookDelivery(context: RunContext): Promise<void> {
  if (!context.selected(family, routeOf(family, 'createWebhookEndpoint'))) return;
  if (context.options.allowWrites !== true) return context.log.skip(flow, 'delivery', 'registers an endpoint and sends an event: needs --allow-writes');
  if (context.v3 === undefined) return context.log.skip(flow, 'delivery', missingCredentials(family));
  let receiver: WebhookReceiver;
  try {
    receiver = await context.webhookReceiver();
  } catch (error) {
    return context.log.add(flow, 'receiver', 'fail', `could not start the local receiver: ${describeError(error)}`);
  }
  await deliverTestEvent(context, receiver);
}

async function deliverTestEvent(context: RunContext, receiver: WebhookReceiver): Promise<void> {
  const name = 'exchange-v3';
  const url = receiver.urlFor(name);
  const body = { name: 'conformance receiver', url, events: Object.keys(family.webhooks.validators) };
  const created = await sendIdempotent(context, { family, operationId: 'createWebhookEndpoint', body, changedBody: { ...body, name: 'conformance receiver (changed)' } });
  const createProblems = successProblems(family, 'createWebhookEndpoint', created, undefined);
  context.log.judge(flow, 'create-endpoint', createProblems, `registered ${url}`);
  const parsed = created === undefined ? undefined : parseBody(created);
  const endpoint = isRecord(parsed) ? (parsed as { result?: { endpoint?: { id?: string; secret?: string } } }).result?.endpoint : undefined;
  if (createProblems.length > 0 || endpoint?.id === undefined || endpoint.secret === undefined) return;
  const endpointId = endpoint.id;
  await context.webhookTarget(name, { family, secret: endpoint.secret, flow });
  context.onCleanup(() => context.v3!.deleteWebhookEndpoint({ path: { webhook: endpointId } }).then(() => undefined));

  const first = await sendTestEvent(context, receiver, endpointId, endpoint.secret, 'signature');
  if (!first) return;
  await flowStep(context, flow, family, 'updateWebhookEndpoint', () => context.v3!.updateWebhookEndpoint({ path: { webhook: endpointId }, body: { name: 'conformance receiver (renamed)' } }));
  const rotated = await flowStep(context, flow, family, 'rotateWebhookSecret', () => context.v3!.rotateWebhookSecret({ path: { webhook: endpointId } }));
  if (rotated === undefined) return;
  const secret = rotated.body.result.endpoint.secret;
  context.webhookTargets.get(`/${name}`)?.secrets.push(secret);
  await sendTestEvent(context, receiver, endpointId, secret, 'signature-after-rotation');
}

/** Sends a test event to the endpoint and judges its delivery; true when it arrived. */
async function sendTestEvent(context: RunContext, receiver: WebhookReceiver, endpointId: string, secret: string, check: string): Promise<boolean> {
  const sent = await context.call(() => context.v3!.sendTestWebhook({ body: { endpoint_id: endpointId } }));
  const sendProblems = successProblems(family, 'sendTestWebhook', sent.exchange, sent.error);
  context.log.judge(flow, 'send-test-event', sendProblems, 'the test event was accepted');
  const event = sent.value?.body.result.event;
  if (sendProblems.length > 0 || event === undefined) return false;

  const timeoutMs = context.options.webhookTimeoutMs ?? 10_000;
  const delivery = await receiver.waitFor((webhook) => headerValue(webhook.headers, family.webhooks.eventIdHeader) === event.id, timeoutMs);
  if (delivery === undefined) {
    context.log.add(flow, 'delivery', 'fail', `no delivery of event ${event.id} reached the receiver within ${timeoutMs} ms`);
    return false;
  }
  context.log.add(flow, 'delivery', 'pass', `event ${event.id} arrived`);
  context.log.judge(flow, check, signatureProblems(family, delivery, [secret]), `${family.webhooks.signatureHeader} verified with the endpoint's secret`);
  context.log.judge(flow, 'payload', payloadProblems(family, delivery), `the body matches the ${event.type} schema`);
  return true;
}
