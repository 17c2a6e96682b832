// The control API's Inspector room and the operator's retry (contracts/sandbox-control.openapi.yaml):
// getInspectorState, one read of the newest records of every kind across every client and site;
// listInspectorRecords, one kind searched, filtered and paged (the page at /__mock/ui reads its
// tables with it); and forceWebhookRetry, the delivery machine's retry for a delivery of any
// owner. The kinds and how each is shown are in inspector-kinds.ts.
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import type { InspectorKind, InspectorState } from '../../generated/sandbox-control/types.js';
import { operationExtension } from '../bundled-contracts.js';
import type { VirtualClock } from '../clock.js';
import { presentDelivery } from '../handlers/v3-webhooks-present.js';
import { HttpError } from '../http/http-error.js';
import { controlSuccess } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { inspectorKinds, type Shown } from './inspector-kinds.js';
import { inspectorPage } from './inspector-query.js';

type InspectorOperation = 'getInspectorState' | 'listInspectorRecords' | 'forceWebhookRetry';

const defaults = {
  limit: queryDefault('getInspectorState', 'limit') as number,
  page: queryDefault('listInspectorRecords', 'page') as number,
  perPage: queryDefault('listInspectorRecords', 'per_page') as number,
  notSent: queryDefault('listInspectorRecords', 'not_sent') as 'exclude' | 'include' | 'only',
};

/**
 * The kinds in the order a snapshot reads them: the exchange and deposit records first, whose
 * time-driven transitions store their webhook events when they are looked at, then the webhooks.
 */
const snapshotOrder: readonly InspectorKind[] = ['orders', 'deposits', 'static_addresses', 'aml_checks', 'upload_intents', 'verifications', 'webhook_events', 'webhook_deliveries'];

export function inspectorControlHandlers(sandbox: Sandbox): Pick<SandboxControlHandlers, InspectorOperation> {
  const { clock } = sandbox;
  return {
    getInspectorState: async (request, context) => {
      const limit = request.query.limit ?? defaults.limit;
      const counts: Record<string, number> = {};
      const records: Record<string, Shown[]> = {};
      for (const kind of snapshotOrder) {
        const source = await inspectorKinds[kind].open(sandbox);
        const page = source.select(0, limit);
        counts[kind] = page.total;
        records[kind] = await Promise.all(page.items.map((record) => source.complete(record)));
      }
      const state = { clock: presentClock(clock), counts, ...records } as unknown as InspectorState;
      return controlSuccess('getInspectorState', context, clock, 200, state);
    },
    listInspectorRecords: async (request, context) => {
      const { kind } = request.path;
      const spec = inspectorKinds[kind];
      const { q, status } = request.query;
      if (status !== undefined && !spec.statuses.includes(status)) {
        throw new HttpError('validation_error', 'The given data was invalid.', { 'query.status': [`must be one of: ${spec.statuses.join(', ')}`] });
      }
      const page = request.query.page ?? defaults.page;
      const perPage = request.query.per_page ?? defaults.perPage;
      const found = await inspectorPage(spec, await spec.open(sandbox), {
        q,
        status,
        notSent: request.query.not_sent ?? defaults.notSent,
        offset: (page - 1) * perPage,
        limit: perPage,
      });
      return controlSuccess('listInspectorRecords', context, clock, 200, { kind, items: found.items, total: found.total, page, per_page: perPage, not_sent_hidden: found.notSentHidden });
    },
    forceWebhookRetry: async (request, context) => {
      const { store, service } = sandbox.webhooks;
      const delivery = await store.getDelivery(request.path.delivery);
      if (delivery === undefined) throw new HttpError('not_found', 'No webhook delivery has this id.');
      const retried = await service.retry(delivery.clientId, delivery.id);
      if (!retried.ok) {
        if (retried.code === 'invalid_state_transition') {
          throw new HttpError('invalid_state_transition', 'The delivery machine does not allow a retry now.', { event: [retried.message] });
        }
        throw new HttpError(retried.code, retried.message);
      }
      return controlSuccess('forceWebhookRetry', context, clock, 200, { delivery: presentDelivery(retried.delivery) });
    },
  };
}

/** The clock as the control API shows it (getClock, the clock operations, the inspector). */
export function presentClock(clock: VirtualClock): InspectorState['clock'] {
  const state = clock.state();
  return { now: state.now.toISOString(), frozen: state.frozen, offset_seconds: state.offsetSeconds };
}

/** A query parameter's default, from the contract. */
function queryDefault(operationId: string, name: string): unknown {
  const parameters = operationExtension('sandbox-control', operationId, 'parameters') as { name?: string; schema?: { default?: unknown } }[] | undefined;
  const value = parameters?.find((p) => p.name === name)?.schema?.default;
  if (value === undefined) throw new Error(`the control contract lacks the default of ${operationId} ${name}`);
  return value;
}
