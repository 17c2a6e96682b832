// simulateOrder (POST /private/sandbox/exchange/orders/simulate): a scratch order priced on the
// route and run through the order machine; nothing is stored, emitted or drawn from a live
// stream (order-simulation.ts). The body's defaults (amount_side, the happy-path events) are the
// contract's.
import type { ExchangeV3Handlers } from '../../generated/exchange-v3/routes.js';
import type { AmountSide, OrderMachineEvent } from '../../generated/exchange-v3/types.js';
import { bundledDocument } from '../bundled-contracts.js';
import { simulateOrder } from '../domain/exchange/order-simulation.js';
import { simulationDraft } from '../domain/exchange/order-simulation-draft.js';
import { HttpError } from '../http/http-error.js';
import { requestLocals } from '../http/locals.js';
import { v3Success } from '../http/respond.js';
import { createRandom } from '../random.js';
import type { Sandbox } from '../sandbox.js';
import { causingRequest, clientOf } from './v3-request.js';

/** Mixed into the sandbox seed: the scratch ids' stream, the same for every simulation of a seed. */
const scratchSalt = 0x5c4a7c4;

interface SimulateDefaults {
  amountSide: AmountSide;
  events: OrderMachineEvent[];
}

let defaults: SimulateDefaults | undefined;

/** SimulateOrderRequest's defaults, read once from the bundled contract. */
function simulateDefaults(): SimulateDefaults {
  if (defaults !== undefined) return defaults;
  const document = bundledDocument('exchange-v3') as { components?: { schemas?: Record<string, { properties?: Record<string, { default?: unknown }> }> } };
  const properties = document.components?.schemas?.SimulateOrderRequest?.properties ?? {};
  const amountSide = properties.amount_side?.default;
  const events = properties.events?.default;
  if (typeof amountSide !== 'string' || !Array.isArray(events)) throw new Error('v3 contract: SimulateOrderRequest lacks the amount_side or events default');
  defaults = { amountSide: amountSide as AmountSide, events: events as OrderMachineEvent[] };
  return defaults;
}

export function orderSimulationHandlers(sandbox: Sandbox): Pick<ExchangeV3Handlers, 'simulateOrder'> {
  return {
    simulateOrder: (request, context) => {
      const { body } = request;
      const clientId = clientOf(context);
      const random = createRandom((sandbox.seedInUse ^ scratchSalt) >>> 0);
      const drafted = simulationDraft(sandbox.services, {
        clientId,
        email: requestLocals(context.res).key!.client.email,
        body: { route_id: body.route_id, amount: body.amount, amount_side: body.amount_side ?? simulateDefaults().amountSide },
        random,
      });
      if (!drafted.ok) throw new HttpError('validation_error', 'The given data was invalid.', { [drafted.field]: [drafted.message] });
      const simulation = simulateOrder({
        clientId,
        draft: drafted.draft,
        events: body.events ?? simulateDefaults().events,
        correlationId: causingRequest(context).correlationId,
        now: sandbox.clock.now(),
        random,
      });
      return v3Success('simulateOrder', context, sandbox.clock, 200, { simulation });
    },
  };
}
