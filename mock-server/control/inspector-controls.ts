// The control API's Inspector room and the operator's retry (contracts/sandbox-control.openapi.yaml):
// getInspectorState, one read of what the mock holds across every client and site (the page at
// /__mock/ui polls it), and forceWebhookRetry, the delivery machine's retry for a delivery of any
// owner. Every record is shown by its own API's presenter; the webhook records add who owns them
// (`owner`: the engine's client id, a v3 client's number or `site:<id>`) and a delivery the check
// of the signature it was sent with (`signature_valid`), which no client API shows.
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import type { InspectorState } from '../../generated/sandbox-control/types.js';
import { operationExtension } from '../bundled-contracts.js';
import type { VirtualClock } from '../clock.js';
import { signatureValidity } from '../dispatch/inbox.js';
import { depositView } from '../domain/deposits/deposit-records.js';
import type { DeliveryRecord, EventRecord } from '../store/records/webhook-records.js';
import type { WebhookStore } from '../store/webhook-store.js';
import { publicCheck } from '../handlers/v1-aml.js';
import { presentDelivery, presentEvent } from '../handlers/v3-webhooks-present.js';
import { HttpError } from '../http/http-error.js';
import { respond } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import type { ListableCollection } from '../store/list-records.js';

type InspectorOperation = 'getInspectorState' | 'forceWebhookRetry';

const defaultLimit = readDefaultLimit();

export function inspectorControlHandlers(sandbox: Sandbox): Pick<SandboxControlHandlers, InspectorOperation> {
  const { clock } = sandbox;
  return {
    getInspectorState: async (request, context) => {
      const limit = request.query.limit ?? defaultLimit;
      return respond(context, clock, 200, await inspectorState(sandbox, limit));
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
      return respond(context, clock, 200, { delivery: presentDelivery(retried.delivery) });
    },
  };
}

/** The newest `limit` records of each kind, with the counts and the clock. */
async function inspectorState(sandbox: Sandbox, limit: number): Promise<InspectorState> {
  const orders = sandbox.services.orders;
  const deposits = sandbox.services.deposits;
  // Time-driven transitions (payment windows, expiry, confirmations) apply when a record is looked
  // at; their events are stored before the webhook records are read.
  orders.tick();
  deposits.tick();
  await Promise.all([orders.flush(), deposits.flush()]);
  const now = sandbox.clock.now();
  const orderPage = newest(orders.collection, 'created_at', limit);
  const depositPage = newest(deposits.collection, 'createdAt', limit);
  const staticAddresses = sandbox.services.staticAddresses;
  const staticPage = newest(staticAddresses.collection, 'createdAt', limit);
  // Checks as they stand: reading them here must not poll the provider (that spends its quota).
  const checks = newestByCreation([...sandbox.services.aml.values()]);
  const { store } = sandbox.webhooks;
  const events = newestByCreation(await store.listEvents());
  const deliveries = newestByCreation(await store.listDeliveries({}));

  return {
    clock: presentClock(sandbox.clock),
    counts: {
      orders: orderPage.total,
      deposits: depositPage.total,
      static_addresses: staticPage.total,
      aml_checks: checks.length,
      webhook_events: events.length,
      webhook_deliveries: deliveries.length,
    },
    orders: orderPage.items.map((o) => orders.present(o)),
    // depositView, not DepositService.view: the latter reconciles pending AML screenings with the provider.
    deposits: depositPage.items.map((d) => depositView(d, deposits.chain, now)),
    static_addresses: staticPage.items.map((a) => staticAddresses.view(a)),
    aml_checks: checks.slice(0, limit).map(publicCheck),
    webhook_events: events.slice(0, limit).map(presentOwnedEvent),
    webhook_deliveries: await Promise.all(deliveries.slice(0, limit).map((d) => presentOwnedDelivery(store, d))),
  };
}

/** The clock as the control API shows it (getClock, the clock operations, the inspector). */
export function presentClock(clock: VirtualClock): InspectorState['clock'] {
  const state = clock.state();
  return { now: state.now.toISOString(), frozen: state.frozen, offset_seconds: state.offsetSeconds };
}

function presentOwnedEvent(event: EventRecord) {
  return { ...presentEvent(event), owner: event.clientId };
}

async function presentOwnedDelivery(store: WebhookStore, delivery: DeliveryRecord) {
  return { ...presentDelivery(delivery), owner: delivery.clientId, signature_valid: await sentSignatureValidity(store, delivery) };
}

/**
 * Whether the last attempt's signature header is the body's signature with the endpoint's
 * current secret (as the inbox checks what it receives); null before any attempt.
 */
async function sentSignatureValidity(store: WebhookStore, delivery: DeliveryRecord): Promise<boolean | null> {
  if (delivery.request === null) return null;
  const headers = Object.fromEntries(Object.entries(delivery.request.headers).map(([name, value]) => [name.toLowerCase(), value]));
  return signatureValidity(store, headers, Buffer.from(delivery.request.body, 'utf8'));
}

/** The first `limit` records by the collection's creation-time sort field, descending, and the total. */
function newest<R>(collection: ListableCollection<R>, createdField: string, limit: number) {
  return collection.index([{ field: createdField, direction: 'desc' }]).page(0, limit);
}

/** Newest first; records created at the same instant keep the newer (later stored) first. */
function newestByCreation<R extends { createdAt: Date }>(records: R[]): R[] {
  return records.reverse().sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

/** The `limit` parameter's default, from the contract. */
function readDefaultLimit(): number {
  const parameters = operationExtension('sandbox-control', 'getInspectorState', 'parameters') as { name?: string; schema?: { default?: unknown } }[] | undefined;
  const value = parameters?.find((p) => p.name === 'limit')?.schema?.default;
  if (typeof value !== 'number') throw new Error('the control contract lacks the default of getInspectorState limit');
  return value;
}
