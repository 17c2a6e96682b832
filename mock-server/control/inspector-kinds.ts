// The kinds of record the inspector shows (contracts/sandbox-control.openapi.yaml InspectorKind),
// each as a source of its records newest first and as its own API presents them, with the
// statuses it may be filtered by (its machine's states, or its contract's enum). Webhook records
// add what no client API shows: their owner (the engine's client id: a v3 client's number or
// `site:<id>`), and for deliveries the event's resource, why one was never sent, and the check of
// the signature it was sent with.
import { bundledDocument } from '../bundled-contracts.js';
import type { InspectorKind } from '../../generated/sandbox-control/types.js';
import {
  amlCheckMachine,
  depositMachine,
  orderMachine,
  uploadIntentMachine,
  verificationMachine,
  webhookDeliveryMachine,
} from '../../generated/machines.js';
import { signatureValidity } from '../dispatch/inbox.js';
import { depositView, type DepositRecord } from '../domain/deposits/deposit-records.js';
import { presentVerification } from '../domain/verifications/verification-records.js';
import { lastAttempt } from '../domain/webhooks/records.js';
import type { DeliveryRecord, EventRecord, EventResource } from '../store/records/webhook-records.js';
import type { WebhookStore } from '../store/webhook-store.js';
import { publicCheck } from '../handlers/v1-aml.js';
import { presentDelivery, presentEvent } from '../handlers/v3-webhooks-present.js';
import type { Sandbox } from '../sandbox.js';
import type { ListableCollection } from '../store/list-records.js';

/** A record as the inspector shows it: its API's presentation and the inspector's additions. */
export type Shown = Record<string, unknown>;

/** Why a webhook delivery was recorded and never sent. */
export const notSentReasons = { noCallbackUrl: 'no_callback_url' } as const;

/** One kind's records, newest first. */
export interface InspectorSource<R> {
  /** A page of the records `keep` keeps (every record without it) and how many it keeps in all. */
  select(offset: number, limit: number, keep?: (record: R) => boolean): { items: R[]; total: number };
  /** What a search and a status filter read. */
  present(record: R): Shown;
  /** The page's items as shown, with what takes a look-up (a delivery's signature check). */
  complete(record: R): Shown | Promise<Shown>;
}

export interface InspectorKindSpec {
  /** The statuses a filter may name. */
  statuses: readonly string[];
  /** Whether some of its records may be recorded and never sent (see notSentReasons). */
  mayBeUnsent: boolean;
  open(sandbox: Sandbox): Promise<InspectorSource<never>>;
}

export const inspectorKinds: Record<InspectorKind, InspectorKindSpec> = {
  orders: {
    statuses: orderMachine.states,
    mayBeUnsent: false,
    open: async (sandbox) => {
      const { orders } = sandbox.services;
      // Time-driven transitions (payment windows, expiry) apply when records are looked at.
      orders.tick();
      await orders.flush();
      return collectionSource(orders.collection, 'created_at', (order) => orders.present(order) as unknown as Shown);
    },
  },
  deposits: {
    statuses: depositMachine.states,
    mayBeUnsent: false,
    open: async (sandbox) => {
      const { deposits } = sandbox.services;
      deposits.tick();
      await deposits.flush();
      const now = sandbox.clock.now();
      // depositView, not DepositService.view: the latter reconciles pending AML screenings with the provider.
      const present = (deposit: DepositRecord) => depositView(deposit, deposits.chain, now) as unknown as Shown;
      return widen<DepositRecord>({ select: (offset, limit, keep) => deposits.records.newest(offset, limit, keep), present, complete: present });
    },
  },
  static_addresses: {
    statuses: contractEnum('deposit-v1', 'StaticAddressStatus'),
    mayBeUnsent: false,
    open: async (sandbox) => {
      const addresses = sandbox.services.staticAddresses;
      return collectionSource(addresses.collection, 'createdAt', (address) => addresses.view(address) as unknown as Shown);
    },
  },
  aml_checks: {
    statuses: amlCheckMachine.states,
    mayBeUnsent: false,
    // Checks as they stand: reading them here must not poll the provider (that spends its quota).
    open: async (sandbox) => arraySource(newestByCreation([...sandbox.services.aml.values()]), (check) => publicCheck(check) as unknown as Shown),
  },
  webhook_events: {
    statuses: contractEnum('exchange-v3', 'WebhookEventStatus'),
    mayBeUnsent: false,
    open: async (sandbox) => {
      const { store } = sandbox.webhooks;
      const deliveries = await store.listDeliveries({});
      const unsent = new Set(deliveries.filter((d) => notSentReason(d) !== null).map((d) => d.eventId));
      const sent = new Set(deliveries.filter((d) => notSentReason(d) === null).map((d) => d.eventId));
      // An event is shown as never sent when each of its deliveries is.
      const shown = (event: EventRecord): Shown => ({ ...presentOwnedEvent(event), not_sent: unsent.has(event.id) && !sent.has(event.id) ? notSentReasons.noCallbackUrl : null });
      return arraySource(newestByCreation(await store.listEvents()), shown);
    },
  },
  webhook_deliveries: {
    statuses: webhookDeliveryMachine.states,
    mayBeUnsent: true,
    open: async (sandbox) => {
      const { store } = sandbox.webhooks;
      const resources = new Map((await store.listEvents()).map((event) => [event.id, event.resource]));
      const shown = (delivery: DeliveryRecord) => presentOwnedDelivery(delivery, resources.get(delivery.eventId) ?? null);
      return arraySource(newestByCreation(await store.listDeliveries({})), shown, async (delivery) => ({
        ...shown(delivery),
        signature_valid: await sentSignatureValidity(store, delivery),
      }));
    },
  },
  upload_intents: {
    statuses: uploadIntentMachine.states,
    mayBeUnsent: false,
    open: async (sandbox) => {
      const { uploads } = sandbox.services;
      return arraySource(uploads.all(), (intent) => ({ ...uploads.view(intent), owner: intent.clientId }));
    },
  },
  verifications: {
    statuses: verificationMachine.states,
    mayBeUnsent: false,
    open: async (sandbox) => arraySource(sandbox.services.verifications.all(), (v) => ({ ...presentVerification(v), owner: v.clientId })),
  },
};

/** A keyset collection newest first by its creation field: a page without a filter costs O(log n + page). */
function collectionSource<R>(collection: ListableCollection<R>, createdField: string, present: (record: R) => Shown): InspectorSource<never> {
  const index = collection.index([{ field: createdField, direction: 'desc' }]);
  return widen<R>({ select: (offset, limit, keep) => index.page(offset, limit, keep), present, complete: present });
}

/** Records already newest first. */
function arraySource<R>(records: R[], present: (record: R) => Shown, complete: (record: R) => Shown | Promise<Shown> = present): InspectorSource<never> {
  return widen<R>({
    select: (offset, limit, keep) => {
      const kept = keep === undefined ? records : records.filter(keep);
      return { items: kept.slice(offset, offset + limit), total: kept.length };
    },
    present,
    complete,
  });
}

/** The kinds' record types differ; callers only pass records a source gave them back. */
function widen<R>(source: InspectorSource<R>): InspectorSource<never> {
  return source as unknown as InspectorSource<never>;
}

/** Newest first; records created at the same instant keep the newer (later stored) first. */
function newestByCreation<R extends { createdAt: Date }>(records: R[]): R[] {
  return records.reverse().sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

function presentOwnedEvent(event: EventRecord): Shown {
  return { ...presentEvent(event), owner: event.clientId };
}

function presentOwnedDelivery(delivery: DeliveryRecord, resource: EventResource | null): Shown {
  return {
    ...presentDelivery(delivery),
    owner: delivery.clientId,
    resource,
    not_sent: notSentReason(delivery),
  };
}

/** A v1 site without a callback URL gets its deliveries recorded at an endpoint without a URL, never due. */
function notSentReason(delivery: DeliveryRecord): string | null {
  return delivery.endpointUrl === '' && delivery.attempts.length === 0 ? notSentReasons.noCallbackUrl : null;
}

/**
 * Whether the last attempt's signature header is the body's signature with the endpoint's
 * current secret (as the inbox checks what it receives); null before any attempt.
 */
async function sentSignatureValidity(store: WebhookStore, delivery: DeliveryRecord): Promise<boolean | null> {
  const request = lastAttempt(delivery)?.request;
  if (request === undefined) return null;
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
  return signatureValidity(store, headers, Buffer.from(request.body, 'utf8'));
}

/** The values of a schema's enum in a contract (a status list no machine holds). */
function contractEnum(contract: 'exchange-v3' | 'deposit-v1', schema: string): readonly string[] {
  const schemas = (bundledDocument(contract).components as { schemas?: Record<string, { enum?: unknown }> } | undefined)?.schemas;
  const values = schemas?.[schema]?.enum;
  if (!Array.isArray(values)) throw new Error(`the ${contract} contract has no enum ${schema}`);
  return values.map(String);
}
