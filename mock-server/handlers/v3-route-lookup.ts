// Finding the route a request names: by id, by the give- and receive-side ids, or by the
// details query (route_id / direction_id, the id pair, or the code pair). Unknown → 404
// not_found; a query that names no route, or names two different ones → 422.
import type { GetRouteDetailsByQueryQuery } from '../../generated/exchange-v3/types.js';
import type { RouteRecord } from '../domain/exchange/catalog/catalog-records.js';
import type { ExchangeCatalog } from '../domain/exchange/catalog/catalog-service.js';
import { HttpError } from '../http/http-error.js';

type RouteQuery = GetRouteDetailsByQueryQuery;

export function routeById(catalog: ExchangeCatalog, id: number): RouteRecord {
  const route = catalog.route(id);
  if (route === undefined) throw new HttpError('not_found', `No route ${id}.`);
  return route;
}

export function routeByPair(catalog: ExchangeCatalog, from: number, to: number): RouteRecord {
  const route = catalog.routeByPair(from, to);
  if (route === undefined) throw new HttpError('not_found', `No route from ${from} to ${to}.`);
  return route;
}

function routeByCodes(catalog: ExchangeCatalog, from: string, to: string): RouteRecord {
  const route = catalog.routeByCodes(from, to);
  if (route === undefined) throw new HttpError('not_found', `No route from ${from} to ${to}.`);
  return route;
}

export function routeByQuery(catalog: ExchangeCatalog, query: RouteQuery): RouteRecord {
  const details: Record<string, string[]> = {};
  const halfPair = (a: keyof RouteQuery, b: keyof RouteQuery) => {
    if (query[a] !== undefined && query[b] === undefined) details[`query.${b}`] = [`is required with ${a}`];
    if (query[b] !== undefined && query[a] === undefined) details[`query.${a}`] = [`is required with ${b}`];
  };
  halfPair('from_currency_id', 'to_currency_id');
  halfPair('from', 'to');
  if (Object.keys(details).length > 0) throw new HttpError('validation_error', 'The given data was invalid.', details);

  const found: [string, RouteRecord][] = [];
  if (query.route_id !== undefined) found.push(['query.route_id', routeById(catalog, query.route_id)]);
  if (query.direction_id !== undefined) found.push(['query.direction_id', routeById(catalog, query.direction_id)]);
  if (query.from_currency_id !== undefined && query.to_currency_id !== undefined) {
    found.push(['query.from_currency_id', routeByPair(catalog, query.from_currency_id, query.to_currency_id)]);
  }
  if (query.from !== undefined && query.to !== undefined) found.push(['query.from', routeByCodes(catalog, query.from, query.to)]);

  const [first, ...others] = found;
  if (first === undefined) {
    throw new HttpError('validation_error', 'The query identifies no route.', {
      query: ['give route_id, direction_id, from_currency_id with to_currency_id, or from with to'],
    });
  }
  for (const [field, route] of others) {
    if (route.id !== first[1].id) details[field] = [`names route ${route.id}, not route ${first[1].id} (${first[0].replace('query.', '')})`];
  }
  if (Object.keys(details).length > 0) throw new HttpError('validation_error', 'The query names more than one route.', details);
  return first[1];
}
