// The v1 webhook helpers (description 4.5): the site's test webhook, resend by X-Event-Id, the
// egress IPs and the event catalog, over the sandbox's webhook engine. The site's callback_url
// acts as its endpoint (domain/webhooks/site-endpoint.ts).
import type { DepositV1Handlers } from '../../generated/deposit-v1/routes.js';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import type { Site } from '../domain/accounts/sites.js';
import { emitSiteEvent, resendSiteEvent, siteWebhookCatalog, type SiteWebhookContext } from '../domain/webhooks/site-endpoint.js';
import { HttpError } from '../http/http-error.js';
import { requestLocals } from '../http/locals.js';
import { v1Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

const testEventType = 'webhook.test';
const testMessage = 'This is a test webhook from the Exchange Service (exchange-api-kit mock).';


type SiteWebhookOperation = 'sendSiteTestWebhook' | 'resendWebhookEvent' | 'listWebhookEgressIps' | 'listWebhookEventTypes';

export function siteWebhookHandlers(sandbox: Sandbox): Pick<DepositV1Handlers, SiteWebhookOperation> {
  // Read at each request: a reset gives the sandbox a new engine and random source.
  const engine = (): SiteWebhookContext => ({ store: sandbox.webhooks.store, service: sandbox.webhooks.service, clock: sandbox.clock, random: sandbox.random });
  const handlers: Pick<DepositV1Handlers, SiteWebhookOperation> = {
    sendSiteTestWebhook: async (_request, context) => {
      const site = siteOf(context);
      const locals = requestLocals(context.res);
      const { event, deliveries } = await emitSiteEvent(engine(), site, {
        type: testEventType,
        data: { message: testMessage },
        requestId: locals.requestId,
        correlationId: locals.correlationId,
        maxAttempts: 1,
        evenIfUnsubscribed: true,
      });
      const [delivery] = deliveries;
      if (delivery === undefined) throw new Error('the test webhook made no delivery');
      return v1Success('sendSiteTestWebhook', context, sandbox.clock, 201, { eventId: event.id, type: testEventType, deliveryId: delivery.id, status: delivery.status });
    },
    resendWebhookEvent: async (request, context) => {
      const resent = await resendSiteEvent(engine(), siteOf(context), request.path.eventId);
      if (!resent.ok) throw new HttpError('NOT_FOUND', 'No webhook event of this site has this id.');
      return v1Success('resendWebhookEvent', context, sandbox.clock, 201, { eventId: resent.event.id, deliveryId: resent.delivery.id, status: resent.delivery.status });
    },
    listWebhookEgressIps: (_request, context) =>
      v1Success('listWebhookEgressIps', context, sandbox.clock, 200, { ips: [...sandbox.webhookEgressIps] }),
    listWebhookEventTypes: (_request, context) =>
      v1Success('listWebhookEventTypes', context, sandbox.clock, 200, { events: siteWebhookCatalog(), subscribed: [...new Set(siteOf(context).webhookEvents)] }),
  };
  return handlers;
}

function siteOf(context: HandlerContext): Site {
  const site = requestLocals(context.res).site;
  if (site === undefined) throw new Error('a v1 handler ran without an authenticated site');
  return site;
}
