// Requests no operation answers, for each family the run covers: a path under the family's base
// that no operation has (one row, named by the family's contract), and a method a path does not
// take — a GET, which changes nothing on any server, to each path that has no GET operation (a
// row for the path's operation). The family's catalog answers them with its codes of HTTP 404 and
// 405 (transport-failures.ts) in the family's error body, not with a framework's HTML page, and a
// path that exists is not answered as unknown.
import { buildUrl } from '../../generated/runtime/client-url.js';
import { RouteMatcher, type RouteDefinition } from '../../generated/runtime/router-runtime.js';
import { families, type Family } from '../contract/families.js';
import type { RunContext } from '../context.js';
import { sendRaw } from '../http/raw-request.js';
import { logExpectedUnroutedError } from './judge-call.js';
import { missingCredentials, noValuesReason } from './operations.js';
import { expectedError, type ExpectedError, type TransportFailure } from './transport-failures.js';

const unknownSegment = 'conformance-unknown-path';

export async function checkTransportRoutes(context: RunContext): Promise<void> {
  for (const family of Object.values(families)) {
    const routes = context.routes(family);
    if (routes.length === 0) continue;
    const matcher = new RouteMatcher(family.routes);
    await checkUnknownPath(context, family, matcher);
    for (const route of firstOperationPerPath(routes)) {
      if (!family.routes.some((other) => other.path === route.path && other.method === 'get')) await checkWrongMethod(context, family, matcher, route);
    }
  }
}

async function checkUnknownPath(context: RunContext, family: Family, matcher: RouteMatcher): Promise<void> {
  const expected = expectation(context, family, family.contract, 'unknown-path');
  if (expected === undefined) return;
  const path = `${commonPrefix(family.routes)}/${unknownSegment}`;
  const methods = [...new Set(family.routes.map((route) => route.method))];
  if (methods.some((method) => matcher.match(method, path) !== undefined)) {
    context.log.skip(family.contract, 'transport:unknown-path', `an operation of ${family.contract} takes ${path}`);
    return;
  }
  await expectUnrouted(context, family, family.contract, 'unknown-path', expected, new URL(`${context.options.baseUrl}${family.basePath}${path}`));
}

async function checkWrongMethod(context: RunContext, family: Family, matcher: RouteMatcher, route: RouteDefinition): Promise<void> {
  const expected = expectation(context, family, route.operationId, 'wrong-method');
  if (expected === undefined) return;
  const values = context.paths.valuesFor(family, route);
  if (values === undefined) {
    context.log.cannotRun(route.operationId, 'transport:wrong-method', noValuesReason(family, route));
    return;
  }
  const url = buildUrl(context.options.baseUrl, family.basePath, route.path, values, {}, [], route.operationId);
  // A GET another operation takes (`/orders/preflight` is an `/orders/{order}`) is no wrong method.
  if (matcher.match('get', url.pathname.slice(family.basePath.length)) !== undefined) return;
  await expectUnrouted(context, family, route.operationId, 'wrong-method', expected, url);
}

/** The answer the catalog names for the failure; undefined (a skip row logged) when there is none or no credentials. */
function expectation(context: RunContext, family: Family, operation: string, failure: TransportFailure): ExpectedError | undefined {
  const expected = expectedError(context, family, operation, failure);
  if (expected === undefined) return undefined;
  if (context.clientOf(family.name) === undefined) {
    context.log.skip(operation, `transport:${failure}`, missingCredentials(family));
    return undefined;
  }
  return expected;
}

async function expectUnrouted(context: RunContext, family: Family, operation: string, failure: TransportFailure, expected: ExpectedError, url: URL): Promise<void> {
  const { exchange } = await sendRaw(context, family, { method: 'GET', url });
  logExpectedUnroutedError(context, family, operation, `transport:${failure}`, exchange, { ...expected, sent: `GET ${url.pathname}` });
}

/** One operation of each path, in the order the routes are listed. */
function firstOperationPerPath(routes: readonly RouteDefinition[]): RouteDefinition[] {
  const seen = new Set<string>();
  return routes.filter((route) => !seen.has(route.path) && seen.add(route.path));
}

/** The literal leading segments every path of the family shares: `/v1/public`, or `` for v3 (below /api/v3). */
function commonPrefix(routes: readonly RouteDefinition[]): string {
  const [first, ...rest] = routes.map((route) => route.path.split('/').slice(1));
  const shared: string[] = [];
  for (const [index, segment] of (first ?? []).entries()) {
    if (segment.includes('{') || rest.some((segments) => segments[index] !== segment)) break;
    shared.push(segment);
  }
  return shared.map((segment) => `/${segment}`).join('');
}
