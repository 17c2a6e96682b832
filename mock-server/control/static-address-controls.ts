// forceStaticAddressEvent: the platform operator disables or enables a static address of any
// site by the static-address machine; the machine refuses an event its table does not allow from
// the address's status (409 with the machine's reason).
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import { HttpError } from '../http/http-error.js';
import { controlSuccess } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

export function staticAddressControlHandlers(sandbox: Sandbox): Pick<SandboxControlHandlers, 'forceStaticAddressEvent'> {
  return {
    forceStaticAddressEvent: (request, context) => {
      const service = sandbox.services.staticAddresses;
      const record = service.findAny(request.path.static_address);
      if (record === undefined) throw new HttpError('not_found', 'No static address has this uuid.');
      const fired = service.fire(record, request.body.event);
      if (!fired.ok) throw new HttpError('invalid_state_transition', fired.reason, { event: [fired.reason] });
      const { from, event, to } = fired.transition;
      return controlSuccess('forceStaticAddressEvent', context, sandbox.clock, 200, { static_address: service.view(record), transition: { from, event, to } });
    },
  };
}
