// The scratch order's draft of a simulation: priced on the route at the clock's instant like a
// quote (amount-check.ts), with the verifications the route and amount need and the client has
// not passed, and payment details drawn from the simulation's own Random, never the live
// stream of real orders. No requisites: a simulation pays out nowhere.
import type { AmountSide, SimulateOrderRequest } from '../../../generated/exchange-v3/types.js';
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

/** The draft, or the field a validation_error names (body.route_id or body.amount) as createOrder would. */
export type SimulationDraft = { ok: true; draft: OrderDraft } | { ok: false; field: 'body.route_id' | 'body.amount'; message: string };

export function simulationDraft(sources: { catalog: ExchangeCatalog; verifications: PassedVerifications }, input: SimulationDraftInput): SimulationDraft {
  const { body, clientId } = input;
  const { catalog } = sources;
  const route = catalog.route(body.route_id);
  if (route === undefined) return { ok: false, field: 'body.route_id', message: 'is not a route' };
  const state = catalog.state(route);
  if (!state.enabled) return { ok: false, field: 'body.route_id', message: `names a suspended route: ${state.disabledReason}` };
  const priced = priceAmount(state, body.amount, body.amount_side);
  if (!priced.ok) return { ok: false, field: 'body.amount', message: priced.message };
  const { amountIn, amountOut, fee } = priced.priced;
  const needs = verificationNeeds(route, amountIn);
  const draft: OrderDraft = {
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
  return { ok: true, draft };
}
