// The webhook-delivery machine through real deliveries to the test's own receiver, a v1 site's
// callback: a resent deposit.* event (the retry schedule's attempts) or the site's test webhook
// (one attempt), the receiver's failures set through the control API's faults, attempts sent
// when due (now, or after the clock passes the schedule's delay), and a failed delivery retried.
import { pathHas, type AnyTransition, type MachineDriver, type WalkContext } from './driver.js';

interface DeliveryHandle {
  id: string;
}

/** The event of the webhook delivered to `url` (the inspector lists every delivery with its endpoint and event). */
async function eventSentTo(context: WalkContext, url: string): Promise<string> {
  const deliveries = (await context.server.control.getInspectorState({ query: { limit: 500 } })).body.result.webhook_deliveries;
  const sent = deliveries.find((d) => (d.endpoint as { url?: string } | undefined)?.url === url);
  if (sent === undefined) throw new Error(`no webhook went to ${url}`);
  return (sent.event as { id: string }).id;
}

/** Longer than any delay of the walk's retry schedule. */
const nextAttemptSeconds = 60;
let receivers = 0;

export const webhookDeliveryDriver: MachineDriver<DeliveryHandle> = {
  // Deliveries to a v1 site's callback (the test's receiver): the deposit API sends nothing by
  // itself, so a new delivery waits, pending, until the walk sends what is due.
  async create(context, path) {
    const { server } = context;
    receivers += 1;
    const url = context.receiverUrl(`delivery-${receivers}`);
    // Subscribed to deposit.confirming only: the clock the walk advances sends the site nothing else.
    const site = await context.newSite(url, ['deposit.confirming']);
    // Each failing step fails one attempt; failing from retrying with none left fails them all.
    const exhausts = pathHas(path, { from: 'retrying', guard: 'attempts_exhausted' });
    const failures = exhausts ? server.sandbox.webhooks.service.machine.maxAttempts : path.filter((step) => step.event === 'attempt_failed').length;
    // Failing on the first attempt with none left is the v1 test webhook's single attempt.
    if (pathHas(path, { from: 'pending', event: 'attempt_failed', to: 'failed' })) {
      await server.control.setWebhookFault({ body: { url, fail_next: failures, status: 503 } });
      return { id: (await site.sendSiteTestWebhook()).body.data.deliveryId };
    }
    // A deposit.* event delivered once; its resend is a new delivery with the whole retry schedule.
    const deposit = (await site.createDeposit({ body: { order_id: `walk-delivery-${receivers}`, asset: 'USDT_TRON', amount: '10' } })).body.data;
    await server.control.injectChainTransaction({ body: { network: deposit.network, address: deposit.address, amount: '10' } });
    await server.control.runDueWebhooks();
    const eventId = await eventSentTo(context, url);
    if (failures > 0) await server.control.setWebhookFault({ body: { url, fail_next: failures, status: 503 } });
    return { id: (await site.resendWebhookEvent({ path: { eventId } })).body.data.deliveryId };
  },

  async fire({ server }, handle, step: AnyTransition) {
    if (step.event === 'retry') {
      await server.control.forceWebhookRetry({ path: { delivery: handle.id } });
      return;
    }
    // An attempt: due now from pending and queued, after the schedule's delay from retrying; the
    // last attempt is reached through the ones before it (retrying stays retrying meanwhile).
    const attempts = step.guard === 'attempts_exhausted' && step.from === 'retrying' ? server.sandbox.webhooks.service.machine.maxAttempts - 1 : 1;
    for (let i = 0; i < attempts; i += 1) {
      if (step.from === 'retrying') await server.control.advanceClock({ body: { seconds: nextAttemptSeconds } });
      await server.control.runDueWebhooks();
    }
  },

  async status({ server }, handle) {
    const deliveries = (await server.control.getInspectorState({ query: { limit: 500 } })).body.result.webhook_deliveries;
    return (deliveries.find((d) => d.id === handle.id)?.status as string | undefined) ?? null;
  },

  ownsDispatch: true,
};
