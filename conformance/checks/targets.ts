// The operations a check may call: selected, with credentials for their family, addressable
// with discovered path values, and read-only unless the run allows writes.
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import { families, type Family } from '../contract/families.js';
import type { RunContext } from '../context.js';

export interface Target {
  family: Family;
  route: RouteDefinition;
  path: Record<string, string>;
}

/** `anonymous`: the check calls without the run's credentials, so a family without them still counts. */
export function reachableTargets(context: RunContext, filter: (family: Family, route: RouteDefinition) => boolean, anonymous = false): Target[] {
  const targets: Target[] = [];
  for (const family of Object.values(families)) {
    if (!anonymous && context.clientOf(family.name) === undefined) continue;
    for (const route of context.routes(family)) {
      if (route.method !== 'get' && context.options.allowWrites !== true) continue;
      if (!filter(family, route)) continue;
      const path = context.paths.valuesFor(family, route);
      if (path !== undefined) targets.push({ family, route, path });
    }
  }
  return targets;
}

/** A JSON body for calls whose body does not matter (rejected before it is read). */
export function placeholderBody(route: RouteDefinition): unknown {
  return route.body?.contentType === 'application/json' ? {} : undefined;
}
