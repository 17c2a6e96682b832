// The exchange catalog operations (description 2.2–2.5, 4.3, 4.4): payment systems and routes
// (lists with the contract's filters and sorts, page and cursor modes), one route, its details
// in the id, pair and query forms, its capabilities, and the public rates file.
import type { ExchangeV3Handlers, UncheckedHandlers } from '../../generated/exchange-v3/routes.js';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import { paymentSystemMatchers, routeMatchers } from '../domain/exchange/catalog/catalog-filters.js';
import { paymentSystemView, routeDetails, serializedRouteView } from '../domain/exchange/catalog/catalog-views.js';
import { ratesXml } from '../domain/exchange/catalog/rates-file.js';
import { routeCapabilities } from '../domain/exchange/catalog/route-capabilities.js';
import type { RouteRecord } from '../domain/exchange/catalog/catalog-records.js';
import { respond } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { filterPredicate, listRecords } from '../store/list-records.js';
import { v3ListRequestOf } from './v3-list-request.js';
import { routeById, routeByPair, routeByQuery } from './v3-route-lookup.js';

type CatalogOperation =
  | 'listPaymentSystems' | 'listRoutes' | 'getRoute' | 'getRouteDetails' | 'getRouteDetailsByPair' | 'getRouteDetailsByQuery'
  | 'getRouteCapabilities' | 'getRouteCapabilitiesByPair' | 'getRatesXml';

export function exchangeCatalogHandlers(sandbox: Sandbox): Pick<UncheckedHandlers<ExchangeV3Handlers>, CatalogOperation> {
  const { clock } = sandbox;
  const catalog = () => sandbox.services.catalog;
  const ok = (context: HandlerContext, result: unknown) => respond(context, clock, 200, result);
  const details = (context: HandlerContext, route: RouteRecord) => ok(context, routeDetails(catalog().state(route), clock.now()));
  const capabilities = (context: HandlerContext, route: RouteRecord) => ok(context, { capabilities: routeCapabilities(catalog().state(route)) });

  return {
    listPaymentSystems: (request, context) => {
      const listRequest = v3ListRequestOf(request.query, 'listPaymentSystems');
      const current = catalog();
      const page = listRecords(current.paymentSystems, listRequest, filterPredicate(listRequest.filters, paymentSystemMatchers(current)));
      return respond(context, clock, 200, { payment_systems: page.items.map((s) => paymentSystemView(current, s)) }, { pagination: page.meta });
    },

    listRoutes: (request, context) => {
      const listRequest = v3ListRequestOf(request.query, 'listRoutes');
      const current = catalog();
      const page = listRecords(current.routes, listRequest, filterPredicate(listRequest.filters, routeMatchers));
      return respond(context, clock, 200, { routes: page.items.map((r) => serializedRouteView(current.state(r))) }, { pagination: page.meta });
    },

    getRoute: (request, context) => {
      const current = catalog();
      return ok(context, { route: serializedRouteView(current.state(routeById(current, request.path.route))) });
    },

    getRouteDetails: (request, context) => details(context, routeById(catalog(), request.path.route)),
    getRouteDetailsByPair: (request, context) => details(context, routeByPair(catalog(), request.path.from, request.path.to)),
    getRouteDetailsByQuery: (request, context) => details(context, routeByQuery(catalog(), request.query)),
    getRouteCapabilities: (request, context) => capabilities(context, routeById(catalog(), request.path.route)),
    getRouteCapabilitiesByPair: (request, context) => capabilities(context, routeByPair(catalog(), request.path.from, request.path.to)),

    getRatesXml: () => {
      const current = catalog();
      return { status: 200, body: ratesXml([...current.routes.values()].map((r) => current.state(r))), contentType: 'application/xml' };
    },
  };
}
