// The v3 webhook operations (description 4.4): endpoints, events, deliveries, retry and the test
// event, over the sandbox's webhook engine. The engine is read from the sandbox on every request
// (reset rebuilds it). Events carry the causing request's ids; after anything that makes a
// delivery due, the dispatcher is kicked off without being awaited, as real deliveries are
// asynchronous to the API call.
import type { ExchangeV3Handlers } from '../../generated/exchange-v3/routes.js';
import type { DeliveryFacets, EventFacets } from '../store/webhook-store.js';
import type { WebhookFailure } from '../domain/webhooks/webhook-service.js';
import { HttpError } from '../http/http-error.js';
import { requestLocals } from '../http/locals.js';
import { v3Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { filterPredicate, match, type FilterMatcher } from '../store/list-records.js';
import { logKeys } from '../store/log-pages.js';
import { v3ListRequestOf } from './v3-list-request.js';
import { causingRequest, clientOf } from './v3-request.js';
import { webhookContractData } from './v3-webhooks-contract.js';
import { refuseUnreachable } from './webhook-url.js';
import { presentDelivery, presentEndpoint, presentEndpointWithSecret, presentEvent, presentTestWebhook } from './v3-webhooks-present.js';

type WebhookOperation =
  | 'listWebhookEndpoints' | 'createWebhookEndpoint' | 'getWebhookEndpoint' | 'updateWebhookEndpoint' | 'deleteWebhookEndpoint'
  | 'rotateWebhookSecret' | 'sendTestWebhook' | 'listWebhookEvents' | 'getWebhookEvent' | 'listWebhookDeliveries'
  | 'getWebhookDelivery' | 'retryWebhookDelivery';

const eventMatchers: Record<string, FilterMatcher<EventFacets>> = { type: match.oneOf((e) => e.type) };
const deliveryMatchers: Record<string, FilterMatcher<DeliveryFacets>> = {
  status: match.oneOf((d) => d.status),
  event_id: match.oneOf((d) => d.eventId),
  endpoint_id: match.oneOf((d) => d.endpointId),
};

export function webhookHandlers(sandbox: Sandbox): Pick<ExchangeV3Handlers, WebhookOperation> {
  const { clock } = sandbox;
  const contract = webhookContractData();
  const engine = () => sandbox.webhooks;
  // Not awaited: the API answers first, the receiver hears later (POST /__mock/webhooks/run-due or
  // runDue() in tests wait for it). Failures of a run are recorded on the deliveries themselves.
  const dispatchSoon = () => {
    void engine().dispatcher.runDue().catch(() => undefined);
  };

  const handlers: Pick<ExchangeV3Handlers, WebhookOperation> = {
    listWebhookEndpoints: async (_request, context) => {
      const endpoints = await engine().service.listEndpoints(clientOf(context));
      return v3Success('listWebhookEndpoints', context, clock, 200, {
        endpoints: endpoints.map(presentEndpoint),
        events: contract.catalog,
        limits: { max_endpoints: engine().service.maxEndpointsPerClient, max_events_per_endpoint: contract.catalog.length },
      });
    },

    createWebhookEndpoint: async (request, context) => {
      const { name, url, events } = request.body;
      await refuseUnreachable(sandbox, url, 'body.url');
      const created = orFail(await engine().service.createEndpoint(clientOf(context), { name, url, events }));
      return v3Success('createWebhookEndpoint', context, clock, 201, { endpoint: presentEndpointWithSecret(created.endpoint, created.secret) });
    },

    getWebhookEndpoint: async (request, context) => {
      const found = orFail(await engine().service.getEndpoint(clientOf(context), request.path.webhook));
      return v3Success('getWebhookEndpoint', context, clock, 200, { endpoint: presentEndpoint(found.endpoint) });
    },

    updateWebhookEndpoint: async (request, context) => {
      const { name, url, events, status } = request.body;
      if (url !== undefined) await refuseUnreachable(sandbox, url, 'body.url');
      const input = {
        ...(name !== undefined ? { name } : {}),
        ...(url !== undefined ? { url } : {}),
        ...(events !== undefined ? { events } : {}),
        ...(status !== undefined ? { status } : {}),
      };
      const updated = orFail(await engine().service.updateEndpoint(clientOf(context), request.path.webhook, input));
      // Activating again queues the endpoint's parked deliveries for now.
      if (updated.endpoint.status === 'active') dispatchSoon();
      return v3Success('updateWebhookEndpoint', context, clock, 200, { endpoint: presentEndpoint(updated.endpoint) });
    },

    deleteWebhookEndpoint: async (request, context) => {
      orFail(await engine().service.deleteEndpoint(clientOf(context), request.path.webhook));
      return v3Success('deleteWebhookEndpoint', context, clock, 200, null);
    },

    rotateWebhookSecret: async (request, context) => {
      const rotated = orFail(await engine().service.rotateSecret(clientOf(context), request.path.webhook));
      return v3Success('rotateWebhookSecret', context, clock, 200, { endpoint: presentEndpointWithSecret(rotated.endpoint, rotated.secret) });
    },

    sendTestWebhook: async (request, context) => {
      const clientId = clientOf(context);
      const type = request.body.event_type ?? contract.testEventType;
      const endpointId = request.body.endpoint_id;
      const service = engine().service;
      // The contract answers a missing target with 422 and details.endpoint_id (it declares no 404 here).
      if (endpointId !== undefined) {
        const found = await service.getEndpoint(clientId, endpointId);
        if (!found.ok) throw noTarget('No webhook endpoint with this id.', 'is not a webhook endpoint of this client');
      } else {
        const targets = (await service.listEndpoints(clientId)).filter((e) => e.status === 'active' && e.events.includes(type));
        if (targets.length === 0) throw noTarget(`No active webhook endpoint subscribes to ${type}.`, `is required when no active endpoint subscribes to ${type}`);
      }
      const { event, deliveries } = await service.emit({
        clientId,
        type,
        resource: { type: 'webhook_endpoint', id: endpointId ?? null },
        payload: request.body.payload ?? {},
        ...causingRequest(context),
        ...(endpointId !== undefined ? { endpointId } : {}),
      });
      dispatchSoon();
      return v3Success('sendTestWebhook', context, clock, 201, presentTestWebhook(event, deliveries));
    },

    listWebhookEvents: async (request, context) => {
      const listRequest = v3ListRequestOf(request.query, 'listWebhookEvents', logKeys);
      const page = await engine().service.pageEvents(clientOf(context), listRequest, filterPredicate(listRequest.filters, eventMatchers));
      return v3Success('listWebhookEvents', context, clock, 200, { events: page.items.map((e) => presentEvent(e)) }, { pagination: page.meta });
    },

    getWebhookEvent: async (request, context) => {
      const found = orFail(await engine().service.getEvent(clientOf(context), request.path.event));
      const order = new Map(found.event.deliveryIds.map((id, index) => [id, index]));
      const deliveries = [...found.deliveries].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
      return v3Success('getWebhookEvent', context, clock, 200, { event: presentEvent(found.event, deliveries) });
    },

    listWebhookDeliveries: async (request, context) => {
      const listRequest = v3ListRequestOf(request.query, 'listWebhookDeliveries', logKeys);
      const page = await engine().service.pageDeliveries(clientOf(context), listRequest, filterPredicate(listRequest.filters, deliveryMatchers));
      return v3Success('listWebhookDeliveries', context, clock, 200, { deliveries: page.items.map(presentDelivery) }, { pagination: page.meta });
    },

    getWebhookDelivery: async (request, context) => {
      const found = orFail(await engine().service.getDelivery(clientOf(context), request.path.delivery));
      return v3Success('getWebhookDelivery', context, clock, 200, { delivery: presentDelivery(found.delivery) });
    },

    retryWebhookDelivery: async (request, context) => {
      const retried = orFail(await engine().service.retry(clientOf(context), request.path.delivery));
      // The contract: "the attempt is made at once".
      dispatchSoon();
      return v3Success('retryWebhookDelivery', context, clock, 200, { delivery: presentDelivery(retried.delivery) });
    },
  };
  return handlers;
}

/** The success of an engine outcome; its failure as the catalog code it names. */
function orFail<T extends { ok: true }>(outcome: T | WebhookFailure): T {
  if (!outcome.ok) throw new HttpError(outcome.code, outcome.message);
  return outcome;
}

function noTarget(message: string, detail: string): HttpError {
  return new HttpError('validation_error', message, { 'body.endpoint_id': [detail] });
}

