// The webhook-endpoint machine through the exchange API and real deliveries: the client disables
// and enables an endpoint with updateWebhookEndpoint, and the mock disables one whose deliveries
// keep failing (the walk's server disables after two failed deliveries; the receiver fails
// through a control API fault and each test webhook runs through its retry schedule).
import type { AnyTransition, MachineDriver } from './driver.js';

interface EndpointHandle {
  id: string;
  url: string;
}

/** Longer than any delay of the walk's retry schedule. */
const nextAttemptSeconds = 60;
let receivers = 0;

export const webhookEndpointDriver: MachineDriver<EndpointHandle> = {
  async create(context) {
    receivers += 1;
    const url = context.receiverUrl(`endpoint-${receivers}`);
    const endpoint = (await context.server.v3.createWebhookEndpoint({ body: { name: `walk ${receivers}`, url, events: ['api.test'] } })).body.result.endpoint;
    return { id: endpoint.id, url };
  },

  async fire({ server }, handle, step: AnyTransition) {
    const path = { path: { webhook: handle.id } };
    switch (step.event) {
      case 'disable':
        await server.v3.updateWebhookEndpoint({ ...path, body: { status: 'disabled' } });
        return;
      case 'enable':
        await server.v3.updateWebhookEndpoint({ ...path, body: { status: 'active' } });
        return;
      case 'failures_exceeded': {
        await server.control.setWebhookFault({ body: { url: handle.url, status: 503 } });
        const limit = server.sandbox.webhooks.service.failedDeliveriesLimit;
        for (let i = 0; i < limit; i += 1) await server.v3.sendTestWebhook({ body: { endpoint_id: handle.id } });
        // Every attempt of the schedule, for all of them at once.
        await server.control.runDueWebhooks();
        for (let i = 1; i < server.sandbox.webhooks.service.machine.maxAttempts; i += 1) {
          await server.control.advanceClock({ body: { seconds: nextAttemptSeconds } });
          await server.control.runDueWebhooks();
        }
        return;
      }
      default:
        throw new Error(`the webhook-endpoint walk cannot fire ${step.event}`);
    }
  },

  async status({ server }, handle) {
    return (await server.v3.getWebhookEndpoint({ path: { webhook: handle.id } })).body.result!.endpoint.status;
  },

  ownsDispatch: true,
};
