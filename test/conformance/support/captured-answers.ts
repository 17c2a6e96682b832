// The mock's real answers, as a client sees them: a conformance run (every operation, the flows,
// the auth and validation matrix, the control API it uses) goes through a proxy that records
// each answer; each is named by the operation whose route its request matched.
import { depositV1Routes, depositV1RoutesBasePath } from '../../../generated/deposit-v1/routes.js';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../../generated/exchange-v3/routes.js';
import { routeOrder, type RouteDefinition } from '../../../generated/runtime/router-runtime.js';
import { sandboxControlRoutes, sandboxControlRoutesBasePath } from '../../../generated/sandbox-control/routes.js';
import type { Report } from '../../../conformance/index.js';
import type { RunningMockServer } from '../../../mock-server/server.js';
import type { ContractKey } from '../../support/contracts.js';
import { startMutatingProxy } from './mutating-proxy.js';
import { runAgainst } from './run.js';

export interface CapturedAnswer {
  contract: ContractKey;
  operationId: string;
  /** The route as the contract writes it, with its server's base path: `/api/v3/private/orders/{order}`. */
  route: string;
  method: string;
  status: number;
  headers: Headers;
  body: string;
}

export interface Capture {
  report: Report;
  answers: CapturedAnswer[];
  /** Requests no route of the contracts matches (the runner's probes of unknown paths and wrong methods). */
  unmatched: string[];
}

export async function captureConformanceRun(mock: RunningMockServer): Promise<Capture> {
  const answers: CapturedAnswer[] = [];
  const unmatched: string[] = [];
  const proxy = await startMutatingProxy(mock.url, {
    response: (request, response) => {
      const matched = matchOperation(request.method, request.target);
      if (matched === undefined) unmatched.push(`${request.method} ${request.target}`);
      else answers.push({ ...matched, method: request.method, status: response.status, headers: response.headers, body: response.body });
      return response;
    },
  });
  try {
    const report = await runAgainst(mock, {}, proxy.url);
    return { report, answers, unmatched };
  } finally {
    await proxy.close();
  }
}

interface CompiledRoute {
  contract: ContractKey;
  operationId: string;
  route: string;
  method: string;
  pattern: RegExp;
}

const families: { contract: ContractKey; basePath: string; routes: readonly RouteDefinition[] }[] = [
  { contract: 'v3', basePath: exchangeV3RoutesBasePath, routes: exchangeV3Routes },
  { contract: 'v1', basePath: depositV1RoutesBasePath, routes: depositV1Routes },
  { contract: 'control', basePath: sandboxControlRoutesBasePath, routes: sandboxControlRoutes },
];

// Literal segments before parameters, as the routers register them (`by-order-id/x` is no {uuid}).
const compiled: CompiledRoute[] = families.flatMap(({ contract, basePath, routes }) =>
  routeOrder(routes).map((route) => ({
    contract,
    operationId: route.operationId,
    route: `${basePath}${route.path}`,
    method: route.method.toUpperCase(),
    pattern: new RegExp(`^${basePath}${route.path.split(/\{[^}]+\}/).map(escapeRegExp).join('[^/]+')}$`),
  })),
);

function matchOperation(method: string, target: string): Pick<CapturedAnswer, 'contract' | 'operationId' | 'route'> | undefined {
  const path = target.split('?')[0]!;
  const found = compiled.find((route) => route.method === method && route.pattern.test(path));
  return found === undefined ? undefined : { contract: found.contract, operationId: found.operationId, route: found.route };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
