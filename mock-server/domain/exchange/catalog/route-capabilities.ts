// `route-capabilities-v1` of a route: what preflight and order creation check against, so an
// integrator can build the order form from it.
import { orderMachine } from '../../../../generated/machines.js';
import type { AmountSide, RouteCapabilities } from '../../../../generated/exchange-v3/types.js';
import type { RouteRecord } from './catalog-records.js';
import { quoteTtlSeconds } from './quote-ttl.js';
import type { RouteState } from './route-state.js';
import { giveRequisites, receiveRequisites, routeRequisites } from './requisite-fields.js';
import { requisiteFormat } from './requisite-formats.js';

/** Both sides can be priced on every route (quotes take amount_side). */
const amountSides: AmountSide[] = ['give', 'receive'];

/** Statuses in which the client may cancel: where the machine lets the client fire `cancel`. */
const cancellableStatuses = [...new Set(orderMachine.transitions.filter((t) => t.event === 'cancel' && t.actor === 'client').map((t) => t.from))];

/** The verifications a route asks for whatever the amount (verification-needs.ts adds the amount rule). */
export function routeVerifications(route: RouteRecord): { identity: boolean; card: boolean } {
  return { identity: route.identityAboveGive === null, card: route.from.spec.kind === 'card' };
}

export function routeCapabilities(state: RouteState): RouteCapabilities {
  const { route } = state;
  return {
    version: 'route-capabilities-v1',
    route_id: route.id,
    status: { enabled: state.enabled, reason: state.disabledReason },
    amount_sides: amountSides,
    fixed_rate: route.rateType === 'fixed',
    quote_ttl_seconds: quoteTtlSeconds,
    requires_email: true,
    requires_verification: routeVerifications(route),
    requisites: { from: giveRequisites(route.from.spec), to: receiveRequisites(route.to.spec), schema: requisitesSchema(route) },
    cancellable_statuses: cancellableStatuses,
  };
}

/** The JSON Schema of an order's requisites on the route: what preflight and order creation check. */
function requisitesSchema(route: RouteRecord): Record<string, unknown> {
  const fields = routeRequisites(route);
  return {
    type: 'object',
    required: fields,
    additionalProperties: false,
    properties: Object.fromEntries(fields.map((field) => [field, requisiteFormat(field, route).schema])),
  };
}
