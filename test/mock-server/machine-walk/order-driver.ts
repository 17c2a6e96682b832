// The order machine through the exchange API (createOrder, confirmOrder, cancelOrder), the
// simulated chain (a payment to the order's address pays it, or pays it short), the clock (the
// payment window), an identity verification reviewed through the control API (which holds and
// releases the order), and the control API's forced events for the exchanger's staff.
import type { Order } from '../../../generated/exchange-v3/types.js';
import { orderMachine } from '../../../generated/machines.js';
import type { OrderMachineEvent } from '../../../generated/sandbox-control/types.js';
import { uploaded } from '../uploads-helpers.js';
import { tronAddress } from '../support/requisites.js';
import { pathHas, type AnyTransition, type MachineDriver, type WalkContext } from './driver.js';

interface OrderHandle {
  order: Order;
  /** The identity verification started for it, when the path needs one. */
  verification: string | null;
}

/** Staff's events, forced through the control API. */
const staffEvents = ['process', 'fail', 'complete', 'refund'];

async function payOnChain({ server }: WalkContext, order: Order, amount: string): Promise<void> {
  const { network, address, memo } = order.payment_details;
  await server.control.injectChainTransaction({ body: { network: network!, address: address!, amount, confirmations: 1000, ...(memo === null ? {} : { memo }) } });
}

/** Starts the identity verification the order needs (a passport and a selfie) and has staff decide it. */
async function decideVerification({ server }: WalkContext, handle: OrderHandle, decision: 'approve' | 'reject'): Promise<void> {
  const passport = await uploaded(server.v3, { purpose: 'identity_verification', field_key: 'passport' });
  const selfie = await uploaded(server.v3, { purpose: 'identity_verification', field_key: 'selfie' });
  const documents = [
    { upload_intent: passport.uuid, kind: 'passport' as const },
    { upload_intent: selfie.uuid, kind: 'selfie' as const },
  ];
  const verification = (await server.v3.createIdentityVerification({ body: { documents, order: handle.order.public_id } })).body.result.verification;
  handle.verification = verification.id;
  await server.control.reviewVerification({ path: { verification: verification.id }, body: { decision, ...(decision === 'reject' ? { reason: 'The photo is blurred.' } : {}) } });
}

export const orderDriver: MachineDriver<OrderHandle> = {
  async create({ server }, path) {
    // BTC → USDT on TRON: the minimum needs no verification, the maximum an identity one.
    const route = (await server.v3.listRoutes({ query: { 'filter[from]': 'BTC', 'filter[to]': 'USDTTRC20' } })).body.result.routes[0]!;
    const held = pathHas(path, { to: 'verification_hold' });
    const amount = held ? route.limits.max_give : route.limits.min_give;
    const created = await server.v3.createOrder({ body: { route_id: route.id, amount, email: 'walk@example.com', requisites: { to_address: tronAddress } } });
    return { order: created.body.result.order, verification: null };
  },

  async fire(context, handle, step: AnyTransition) {
    const { server } = context;
    const ref = { path: { order: handle.order.public_id } };
    if (staffEvents.includes(step.event)) {
      await server.control.forceOrderEvent({ ...ref, body: { event: step.event as OrderMachineEvent } });
      return;
    }
    switch (step.event) {
      case 'confirm':
        await server.v3.confirmOrder(ref);
        return;
      case 'cancel':
        await server.v3.cancelOrder(ref);
        return;
      case 'pay':
        return payOnChain(context, handle.order, handle.order.amount_in);
      case 'pay_short':
        return payOnChain(context, handle.order, '0.00000001');
      case 'expire':
        await server.control.advanceClock({ body: { seconds: orderMachine.timers.payment_window!.seconds! } });
        return;
      case 'verification_approved':
        return decideVerification(context, handle, 'approve');
      case 'verification_rejected':
        return decideVerification(context, handle, 'reject');
      default:
        throw new Error(`the order walk cannot fire ${step.event}`);
    }
  },

  async status({ server }, handle) {
    return (await server.v3.getExchangeOrder({ path: { order: handle.order.public_id } })).body.result.order.status;
  },

  about(handle, received) {
    return received.filter((w) => (w.body.resource as { type?: string; id?: unknown } | undefined)?.id === handle.order.id && (w.body.resource as { type?: string }).type === 'order').map((w) => w.type);
  },

  // A paid order that needs a verification is held at once: paid → verification_hold by itself.
  automatic: (step) => step.event === 'hold_for_verification',
};
