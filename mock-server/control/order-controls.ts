// forceOrderEvent: fires any event of the order machine on any client's order as staff or the
// exchanger's systems would, guards overridden; the machine still refuses an event its table does
// not allow from the order's status (409 with the machine's reason).
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import { ordersChanged } from '../handlers/v3-orders.js';
import { HttpError } from '../http/http-error.js';
import { controlSuccess } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

export function orderControlHandlers(sandbox: Sandbox): Pick<SandboxControlHandlers, 'forceOrderEvent'> {
  return {
    forceOrderEvent: async (request, context) => {
      const service = sandbox.services.orders;
      const order = service.findAny(request.path.order);
      if (order === undefined) {
        await ordersChanged(sandbox);
        throw new HttpError('not_found', 'No order has this id, public_id or tracking_id.');
      }
      // No cause: events of staff and system transitions carry null request ids (the contract's order.status_changed).
      const result = service.fire(order, request.body.event, { ignoreGuards: true });
      await ordersChanged(sandbox);
      if (!result.ok) throw new HttpError('invalid_state_transition', result.reason, { event: [result.reason] });
      const { from, event, to } = result.transition;
      return controlSuccess('forceOrderEvent', context, sandbox.clock, 200, { order: service.present(order), transition: { from, event, to } });
    },
  };
}
