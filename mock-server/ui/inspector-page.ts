// The inspector page (/__mock/ui): static HTML, CSS and JS from ./public, and config.json, what
// the page needs from the contracts so it restates none of it: the control operations it calls
// (method and path), the admin-token header, the statuses each kind of record may be filtered by,
// the order events each status allows (forceOrderEvent ignores guards), the delivery statuses the
// machine retries, why a delivery may never be sent, and the networks of the v1 catalog.
// The page holds no data: everything it shows comes from the control API, which asks for the admin
// token when the mock has one (the page then sends it; see public/inspector.js).
import express, { type Router } from 'express';
import { orderMachine, webhookDeliveryMachine } from '../../generated/machines.js';
import { sandboxControlSecuritySchemes } from '../../generated/sandbox-control/contract-data.js';
import { sandboxControlRoutes, sandboxControlRoutesBasePath } from '../../generated/sandbox-control/routes.js';
import { allowedEvents } from '../domain/machines/fire.js';
import { enabledNetworks } from '../domain/deposits/networks.js';
import { inspectorKinds, notSentReasons } from '../control/inspector-kinds.js';
import { kitPath } from '../../kit-files.js';
import { pageSecurityHeaders } from '../http/page-security-headers.js';

const publicDir = kitPath('mock-server/ui/public/');

/** The control operations the page calls. */
const pageOperations = [
  'getClock',
  'listInspectorRecords',
  'listFaults',
  'removeFault',
  'advanceClock',
  'freezeClock',
  'resumeClock',
  'injectChainTransaction',
  'forceOrderEvent',
  'forceWebhookRetry',
  'runDueWebhooks',
] as const;

/** How the page names why a delivery was never sent. */
const notSentLabels: Record<(typeof notSentReasons)[keyof typeof notSentReasons], string> = { no_callback_url: 'no callback URL' };

/** The delivery machine's event that forceWebhookRetry fires. */
const retryEvent = 'retry';

function inspectorPageConfig() {
  const operations = Object.fromEntries(
    pageOperations.map((id) => {
      const route = sandboxControlRoutes.find((r) => r.operationId === id);
      if (route === undefined) throw new Error(`the control contract has no ${id}`);
      return [id, { method: route.method.toUpperCase(), path: `${sandboxControlRoutesBasePath}${route.path}` }];
    }),
  );
  return {
    adminTokenHeader: sandboxControlSecuritySchemes.adminToken.name,
    operations,
    kinds: Object.fromEntries(Object.entries(inspectorKinds).map(([kind, spec]) => [kind, { statuses: spec.statuses }])),
    notSentLabels,
    orderEvents: Object.fromEntries(orderMachine.states.map((s) => [s, allowedEvents(orderMachine, s, { ignoreGuards: true })])),
    retryableDeliveryStatuses: webhookDeliveryMachine.states.filter((s) => allowedEvents(webhookDeliveryMachine, s).includes(retryEvent)),
    networks: enabledNetworks().map((n) => ({ code: n.code, name: n.name, memoName: n.memoName })),
  };
}

export function inspectorPage(): Router {
  const config = inspectorPageConfig();
  const router = express.Router();
  router.use(pageSecurityHeaders({ inlineStyles: false }));
  router.get('/config.json', (_req, res) => {
    res.json(config);
  });
  router.use(express.static(publicDir, { index: 'index.html' }));
  return router;
}
