// setReserve: staff refill or drain the reserve of a payment system of the exchange catalog; every
// route paying out in it is priced again (a reserve below a route's smallest payout disables it).
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import { parseDecimal } from '../decimal.js';
import { HttpError } from '../http/http-error.js';
import { controlSuccess } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

export function catalogControlHandlers(sandbox: Sandbox): Pick<SandboxControlHandlers, 'setReserve'> {
  return {
    setReserve: (request, context) => {
      const catalog = sandbox.services.catalog;
      const system = catalog.systemByLetter(request.path.payment_system);
      if (system === undefined) throw new HttpError('not_found', 'No payment system has this code.');
      catalog.setReserve(system, parseDecimal(request.body.amount));
      const routes = catalog.routesOf(system).receiveFrom.map((route) => {
        const state = catalog.state(route);
        return { id: route.id, enabled: state.enabled, reason: state.disabledReason };
      });
      return controlSuccess('setReserve', context, sandbox.clock, 200, { payment_system: { id: system.id, code: system.spec.letter, reserve: system.reserve }, routes });
    },
  };
}
