// The catalog as the contract shows it: PaymentSystem (description 2.2), ExchangeRoute (2.3)
// and the route details (2.4) with their snapshot and operation contract.
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../../../generated/exchange-v3/routes.js';
import type { ExchangeRoute, PaymentSystem, Quote, RouteDetailsResult } from '../../../../generated/exchange-v3/types.js';
import { SerializedJson } from '../../../../generated/runtime/serialized-json.js';
import { requireNetwork } from '../../deposits/networks.js';
import type { ExchangeCatalog } from './catalog-service.js';
import { isManual, type PaymentSystemRecord } from './catalog-records.js';
import { giveRequisites, receiveRequisites } from './requisite-fields.js';
import { routeSnapshot, type RouteState } from './route-state.js';

const logoBase = 'https://cdn.exchange.test/logos/';

/** Fields of quotes and orders that carry the route's rates-file codes (`contract.currency_fields`). */
const currencyFields: (keyof Quote)[] = ['currency_in', 'currency_out'];

/** Full path of an operation, read from the generated routes (never typed by hand). */
function endpointOf(operationId: string): string {
  const route = exchangeV3Routes.find((r) => r.operationId === operationId);
  if (route === undefined) throw new Error(`no operation ${operationId} in the exchange contract`);
  return `${exchangeV3RoutesBasePath}${route.path}`;
}

const chainEndpoints = {
  quote_endpoint: endpointOf('createQuote'),
  preflight_endpoint: endpointOf('preflightOrder'),
  order_endpoint: endpointOf('createOrder'),
};

export function paymentSystemView(catalog: ExchangeCatalog, system: PaymentSystemRecord): PaymentSystem {
  const { spec } = system;
  const { giveTo, receiveFrom } = catalog.routesOf(system);
  const { canGive, canReceive } = catalog.sidesOf(system);
  const network = spec.network === null ? null : requireNetwork(spec.network);
  return {
    id: system.id,
    type: 'payment_system',
    name: spec.name,
    payment: { id: system.paymentId, name: spec.payment.name, logo: spec.payment.logo, logo_url: `${logoBase}${spec.payment.logo}` },
    currency: { id: system.currencyId, code: spec.currency.code, sign: spec.currency.sign },
    codes: { letter: spec.letter, short: spec.short, network_in: spec.network ?? '', network_out: spec.network ?? '' },
    precision: { amount_decimal: spec.decimals },
    capabilities: { can_give: canGive, can_receive: canReceive, income_enabled: canGive ? 1 : 0, outcome_enabled: canReceive ? 1 : 0 },
    routes: {
      give_to: giveTo.map((r) => ({ route_id: r.id, currency_id: r.to.id })),
      receive_from: receiveFrom.map((r) => ({ route_id: r.id, currency_id: r.from.id })),
    },
    form: { give: giveRequisites(spec), receive: receiveRequisites(spec) },
    notices: {
      ...(network?.memoRequired ? { memo: `Payments on ${network.name} need the ${network.memoName?.replace('_', ' ')}; without it they are not credited.` } : {}),
      ...(spec.payoutsSuspended !== undefined ? { payouts: spec.payoutsSuspended } : {}),
    },
    network: network === null ? {} : { code: network.code, name: network.name, confirmations: network.defaultConfirmations, memo_name: network.memoName },
    filters: { ids: [system.id] },
    sorting: { position: system.position },
  };
}

function sideView(system: PaymentSystemRecord): ExchangeRoute['from'] {
  const { spec } = system;
  return {
    id: system.id,
    payment: spec.payment.name,
    code: spec.letter,
    designation: spec.currency.code,
    small_code: spec.short,
    network: spec.network ?? '',
    network_out: spec.network ?? '',
    decimal: spec.decimals,
  };
}

/**
 * The route as the contract shows it. A state never changes (a change makes a new one), so its
 * view is built once and shared by every response that lists the route, frozen so that no
 * caller can change what the others send, and serialised once: answers splice in its bytes.
 */
export function serializedRouteView(state: RouteState): SerializedJson<ExchangeRoute> {
  let view = views.get(state);
  if (view === undefined) {
    view = new SerializedJson(deepFreeze(buildRouteView(state)));
    views.set(state, view);
  }
  return view;
}

export function routeView(state: RouteState): ExchangeRoute {
  return serializedRouteView(state).value;
}

const views = new WeakMap<RouteState, SerializedJson<ExchangeRoute>>();

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const field of Object.values(value)) deepFreeze(field);
    Object.freeze(value);
  }
  return value;
}

function buildRouteView(state: RouteState): ExchangeRoute {
  const { route } = state;
  const fixed = route.rateType === 'fixed';
  return {
    id: route.id,
    status: state.enabled ? 1 : 0,
    is_enabled: state.enabled,
    name: route.name,
    from: sideView(route.from),
    to: sideView(route.to),
    limits: { ...state.limits },
    rate: { type: route.rateType, course: state.course, is_type_rate: fixed, default_type_rate: fixed ? 1 : 0, modes: { fixed, floating: !fixed } },
    features: { fee_percent: route.feePercent },
    timestamps: { updated_at: state.updatedAt.toISOString() },
    sorting: { position: route.position },
  };
}

export function routeDetails(state: RouteState, now: Date): RouteDetailsResult {
  const { route } = state;
  const view = routeView(state);
  const operation = {
    type: 'exchange',
    from: route.from.spec.letter,
    to: route.to.spec.letter,
    manual: isManual(route),
  };
  const snapshot = routeSnapshot(state, now.getTime());
  const contract = { ...chainEndpoints, amount_side: 'give' as const, currency_fields: currencyFields };
  return {
    route: view,
    operation,
    snapshot,
    operation_contract: { version: 'operation-contract-v1', route: view, operation, snapshot, contract },
    contract,
  };
}
