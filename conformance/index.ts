// runConformance(options): judges a server against the contracts and returns the report. The CLI
// (conformance/cli.ts, `npm run conformance`) and `exchange-api-kit conformance` wrap it.
import { checkAuthentication } from './checks/auth.js';
import { checkDepositFlow } from './checks/deposit-flow.js';
import { checkExchangeFlow } from './checks/exchange-flow.js';
import { checkReadOperations } from './checks/operations.js';
import { checkReceivedWebhooks } from './checks/received-webhooks.js';
import { explainSignatureWindow } from './checks/signature-window.js';
import { checkPagination } from './checks/pagination.js';
import { checkTransportBodies } from './checks/transport-bodies.js';
import { checkTransportRoutes } from './checks/transport-routes.js';
import { checkValidation } from './checks/validation.js';
import { checkWebhookDelivery } from './checks/webhooks.js';
import { families } from './contract/families.js';
import { RunContext } from './context.js';
import type { ConformanceOptions } from './options.js';
import { summarize, type Report } from './report.js';
import { checkReachable, prepareCredentials, syncServerClock } from './setup.js';

export type { ConformanceOptions } from './options.js';
export type { CheckResult, Outcome, Report } from './report.js';
export { renderTable } from './reporters/table.js';
export { renderJunit } from './reporters/junit.js';
export { renderJson } from './reporters/json.js';

/** The contract tags (for --only) and operationIds (for --skip-operations) the runner knows. */
export function knownNames(): { tags: string[]; operations: string[] } {
  const routes = Object.values(families).flatMap((family) => family.routes);
  return { tags: [...new Set(routes.map((route) => route.tag))], operations: routes.map((route) => route.operationId) };
}

export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const started = Date.now();
  const context = new RunContext({ ...options, baseUrl: options.baseUrl.replace(/\/+$/, '') });
  logSkippedOperations(context);
  if (await checkReachable(context)) {
    await syncServerClock(context);
    await prepareCredentials(context);
    // Flows first: what they create gives the read checks something to address.
    await checkWebhookDelivery(context);
    await checkDepositFlow(context);
    await checkExchangeFlow(context);
    await checkReadOperations(context);
    await checkAuthentication(context);
    await checkValidation(context);
    await checkTransportBodies(context);
    await checkTransportRoutes(context);
    await checkPagination(context);
    await checkReceivedWebhooks(context);
    explainSignatureWindow(context);
    await context.cleanUp();
  }
  const results = context.log.results;
  return { baseUrl: context.options.baseUrl, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, results, summary: summarize(results) };
}

function logSkippedOperations(context: RunContext): void {
  for (const [operationId, reason] of Object.entries(context.options.skipOperations ?? {})) {
    context.log.skip(operationId, 'all', reason);
  }
}
