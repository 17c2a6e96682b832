// The exchange catalog operations (description 2.2–2.5, 4.3, 4.4): payment systems and routes
// (lists with the contract's filters and sorts, page and cursor modes), one route, its details
// in the id, pair and query forms, its capabilities, and the public rates file.
import type { ExchangeV3Handlers } from '../../generated/exchange-v3/routes.js';
import { paymentSystemMatchers, routeMatchers } from '../domain/exchange/catalog/catalog-filters.js';
import { paymentSystemView, routeDetails, serializedRouteView } from '../domain/exchange/catalog/catalog-views.js';
import { ratesXml } from '../domain/exchange/catalog/rates-file.js';
import { routeCapabilities } from '../domain/exchange/catalog/route-capabilities.js';
import type { RouteRecord } from '../domain/exchange/catalog/catalog-records.js';
import { v3Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { filterPredicate, listRecords } from '../store/list-records.js';
import { v3ListRequestOf } from './v3-list-request.js';
import { spliced, splicedList } from './spliced.js';
import { routeById, routeByPair, routeByQuery } from './v3-route-lookup.js';

type CatalogOperation =
  | 'listPaymentSystems' | 'listRoutes' | 'getRoute' | 'getRouteDetails' | 'getRouteDetailsByPair' | 'getRouteDetailsByQuery'
  | 'getRouteCapabilities' | 'getRouteCapabilitiesByPair' | 'getRatesXml';

export function exchangeCatalogHandlers(sandbox: Sandbox): Pick<ExchangeV3Handlers, CatalogOperation> {
  const { clock } = sandbox;
  const catalog = () => sandbox.services.catalog;
  const details = (route: RouteRecord) => routeDetails(catalog().state(route), clock.now());
  const capabilities = (route: RouteRecord) => ({ capabilities: routeCapabilities(catalog().state(route)) });

  return {
    listPaymentSystems: (request, context) => {
      const current = catalog();
      const listRequest = v3ListRequestOf(request.query, 'listPaymentSystems', current.paymentSystems.keys);
      const page = listRecords(current.paymentSystems, listRequest, filterPredicate(listRequest.filters, paymentSystemMatchers(current)));
      return v3Success('listPaymentSystems', context, clock, 200, { payment_systems: page.items.map((s) => paymentSystemView(current, s)) }, { pagination: page.meta });
    },

    listRoutes: (request, context) => {
      const current = catalog();
      const listRequest = v3ListRequestOf(request.query, 'listRoutes', current.routes.keys);
      const page = listRecords(current.routes, listRequest, filterPredicate(listRequest.filters, routeMatchers));
      return v3Success('listRoutes', context, clock, 200, { routes: splicedList(page.items.map((r) => serializedRouteView(current.state(r)))) }, { pagination: page.meta });
    },

    getRoute: (request, context) => {
      const current = catalog();
      return v3Success('getRoute', context, clock, 200, { route: spliced(serializedRouteView(current.state(routeById(current, request.path.route)))) });
    },

    getRouteDetails: (request, context) => v3Success('getRouteDetails', context, clock, 200, details(routeById(catalog(), request.path.route))),
    getRouteDetailsByPair: (request, context) => v3Success('getRouteDetailsByPair', context, clock, 200, details(routeByPair(catalog(), request.path.from, request.path.to))),
    getRouteDetailsByQuery: (request, context) => v3Success('getRouteDetailsByQuery', context, clock, 200, details(routeByQuery(catalog(), request.query))),
    getRouteCapabilities: (request, context) => v3Success('getRouteCapabilities', context, clock, 200, capabilities(routeById(catalog(), request.path.route))),
    getRouteCapabilitiesByPair: (request, context) => v3Success('getRouteCapabilitiesByPair', context, clock, 200, capabilities(routeByPair(catalog(), request.path.from, request.path.to))),

    getRatesXml: () => {
      const current = catalog();
      return { status: 200, body: ratesXml([...current.routes.values()].map((r) => current.state(r))), contentType: 'application/xml' };
    },
  };
}
