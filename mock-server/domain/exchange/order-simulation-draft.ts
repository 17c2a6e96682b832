// The scratch order's draft of a simulation: priced on the route at the clock's instant like a
// quote (amount-check.ts), with the verifications the route and amount need and the client has
// not passed, and payment details drawn from the simulation's own Random, never the live
// stream of real orders. No requisites: a simulation pays out nowhere.
import type { AmountSide, SimulateOrderRequest } from '../../../generated/exchange-v3/types.js';
import { HttpError } from '../../http/http-error.js';
import type { Random } from '../../random.js';
import { priceAmount } from './amount-check.js';
import type { ExchangeCatalog } from './catalog/catalog-service.js';
import type { OrderDraft } from './order-records.js';
import { PaymentDetailsSource } from './payment-details.js';
import { verificationNeeds, type PassedVerifications } from './verification-needs.js';

export interface SimulationDraftInput {
  clientId: string;
  /** The client's email (the scratch order's customer). */
  email: string;
  body: Pick<SimulateOrderRequest, 'route_id' | 'amount'> & { amount_side: AmountSide };
  random: Random;
}

/** The draft, or a validation_error naming body.route_id or body.amount as createOrder would. */
export function simulationDraft(sources: { catalog: ExchangeCatalog; verifications: PassedVerifications }, input: SimulationDraftInput): OrderDraft {
  const { body, clientId } = input;
  const { catalog } = sources;
  const route = catalog.route(body.route_id);
  if (route === undefined) throw invalid('body.route_id', 'is not a route');
  const state = catalog.state(route);
  if (!state.enabled) throw invalid('body.route_id', `names a suspended route: ${route.suspended}`);
  const priced = priceAmount(state, body.amount, body.amount_side);
  if (!priced.ok) throw invalid('body.amount', priced.message);
  const { amountIn, amountOut, fee } = priced.priced;
  const needs = verificationNeeds(route, amountIn);
  return {
    routeId: route.id,
    quoteId: null,
    amountIn,
    amountOut,
    rate: state.course,
    fee,
    currencyIn: route.from.spec.letter,
    currencyOut: route.to.spec.letter,
    paymentDetails: new PaymentDetailsSource(input.random).forRoute(route, amountIn),
    requisites: {},
    fromRequisite: null,
    toRequisite: null,
    email: input.email,
    clientOrderId: null,
    verificationRequired: {
      identity: needs.identity && !sources.verifications.hasApproved(clientId, 'identity'),
      // No card is named, so no card of the client counts as verified.
      card: needs.card,
    },
  };
}

function invalid(field: string, message: string): HttpError {
  return new HttpError('validation_error', 'The given data was invalid.', { [field]: [message] });
}
