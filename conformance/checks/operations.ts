// Every reachable read operation, called through the generated client with discovered path
// values, its answer judged against the contract aspect by aspect. List answers feed the path
// values of the operations below them, so lists run first.
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import { families, type Family } from '../contract/families.js';
import type { RunContext } from '../context.js';
import { listAncestor, pathParameterNames } from '../discovery.js';
import { errorCodeOf } from '../judge/response.js';
import { logResponseAspects, parseBody } from './judge-call.js';

export async function checkReadOperations(context: RunContext): Promise<void> {
  for (const family of Object.values(families)) {
    const reads = context.routes(family).filter((route) => route.method === 'get');
    for (const route of byDepth(reads)) await checkRead(context, family, route);
  }
}

/** Routes with fewer path parameters first, so lists answer before the items they list. */
function byDepth(routes: RouteDefinition[]): RouteDefinition[] {
  return [...routes].sort((a, b) => pathParameterNames(a).length - pathParameterNames(b).length || a.path.length - b.path.length);
}

async function checkRead(context: RunContext, family: Family, route: RouteDefinition): Promise<void> {
  const client = route.security.length === 0 && family.name === 'v3' ? context.v3Client(undefined) : context.clientOf(family.name);
  if (client === undefined) {
    context.log.skip(route.operationId, 'response', missingCredentials(family));
    return;
  }
  const values = context.paths.valuesFor(family, route);
  if (values === undefined) {
    context.log.cannotRun(route.operationId, 'response', noValuesReason(family, route));
    return;
  }
  const spec = context.specOf(family.name, route.operationId);
  const query = context.paths.queryValuesFor(family, route);
  const { exchange, error } = await context.call(() => client.runtime.request(spec, { path: values, query }));
  if (exchange !== undefined && exchange.status === 403 && errorCodeOf(exchange) === family.codes.scopeDenied) {
    context.log.skip(route.operationId, 'response', `the key lacks scope ${route.scope ?? ''}`);
    return;
  }
  logResponseAspects(context, family, route.operationId, exchange, error);
  if (exchange !== undefined && exchange.status >= 200 && exchange.status < 300) context.paths.harvest(family, route, parseBody(exchange));
}

export function missingCredentials(family: Family): string {
  return family.name === 'v3' ? 'no v3 token (--token, or --sandbox to mint one)' : 'no v1 credentials (--v1-key/--v1-secret, or --sandbox to create a site)';
}

export function noValuesReason(family: Family, route: RouteDefinition): string {
  const names = pathParameterNames(route).map((name) => `{${name}}`).join(', ');
  const ancestor = listAncestor(family, route);
  return ancestor === undefined
    ? `no value for ${names}: no list operation returned one`
    : `no value for ${names}: ${ancestor.operationId} listed none`;
}
