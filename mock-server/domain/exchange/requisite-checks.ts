// The requisites of an order checked against its route: the fields the route needs
// (capabilities' requisites), no others, and each in the format of its side
// (catalog/requisite-formats.ts, which capabilities publish as `requisites.schema`).
import type { OrderRequisites } from '../../../generated/exchange-v3/types.js';
import type { RouteRecord } from './catalog/catalog-records.js';
import { requisiteFormat } from './catalog/requisite-formats.js';
import { routeRequisites, type RequisiteField } from './catalog/requisite-fields.js';

/** Field (`body.requisites.<name>`) → messages; empty when the requisites fit the route. */
export function requisiteErrors(route: RouteRecord, requisites: OrderRequisites): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const fail = (field: RequisiteField, message: string) => {
    (errors[`body.requisites.${field}`] ??= []).push(message);
  };
  const needed = routeRequisites(route);
  for (const field of needed) {
    const value = requisites[field];
    if (value === undefined || value === null || value === '') fail(field, `is required on route ${route.id} (${route.name})`);
    else {
      const problem = requisiteFormat(field, route).problem(value);
      if (problem !== null) fail(field, problem);
    }
  }
  for (const field of Object.keys(requisites) as RequisiteField[]) {
    if (!needed.includes(field)) fail(field, `is not used on route ${route.id}; it needs ${needed.join(', ') || 'no requisites'}`);
  }
  return errors;
}
