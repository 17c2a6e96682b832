// A v1 site as the webhook engine sees it: a client of its own (`site:<id>`) with one synthetic
// endpoint that mirrors the site (its callback_url, its subscribed events, its webhook secret),
// the v1 event body (DepositWebhookBody / TestWebhookBody: camelCase, isFinal from the catalog)
// and what the v1 helpers add to the engine: emitting for a site, and a new delivery of an
// event already in the log (resend). A site without a callback URL gets its deliveries recorded
// and never sent (control createSite: "the mock records each delivery without sending it").
import { createHash } from 'node:crypto';
import { bundledDocument } from '../../bundled-contracts.js';
import type { Clock } from '../../clock.js';
import type { Random } from '../../random.js';
import { isSiteCallerId, siteCallerId } from '../accounts/caller-ids.js';
import type { Site } from '../accounts/sites.js';
import { isDepositV1Webhook, type DepositV1Webhook } from '../accounts/deposit-webhook-events.js';
import { randomUuid, secretFingerprint } from './ids.js';
import type { DeliveryRecord, EndpointRecord, EventRecord, EventResource } from '../../store/records/webhook-records.js';
import { newDelivery } from './records.js';
import { rollUp, type Outcome, type WebhookService } from './webhook-service.js';
import type { WebhookStore } from '../../store/webhook-store.js';

export interface SiteWebhookContext {
  store: WebhookStore;
  service: WebhookService;
  clock: Clock;
  /** The sandbox's seeded source (new delivery ids). */
  random: Random;
}

/** One entry of the v1 event catalog (listWebhookEventTypes). */
export interface SiteEventType {
  type: DepositV1Webhook;
  description: string;
  isFinal: boolean;
}

let catalog: SiteEventType[] | undefined;

/**
 * Every event type of the deposit contract's `webhooks` section, in its order, with the webhook's
 * description and its `x-final` flag (read from the bundled contract, so nothing is restated).
 */
export function siteWebhookCatalog(): SiteEventType[] {
  catalog ??= loadCatalog();
  return catalog.map((entry) => ({ ...entry }));
}

function loadCatalog(): SiteEventType[] {
  const doc = bundledDocument('deposit-v1') as { webhooks?: Record<string, { post?: { description?: unknown; 'x-final'?: unknown } }> };
  return Object.entries(doc.webhooks ?? {}).map(([type, item]) => {
    const description = item.post?.description;
    const isFinal = item.post?.['x-final'];
    if (typeof description !== 'string' || typeof isFinal !== 'boolean') {
      throw new Error(`the deposit contract's webhook ${type} lacks a description or a boolean x-final`);
    }
    if (!isDepositV1Webhook(type)) throw new Error(`the deposit contract's webhook ${type} has no generated validator`);
    return { type, description: description.trim(), isFinal };
  });
}

function isFinalType(type: string): boolean {
  return siteWebhookCatalog().find((entry) => entry.type === type)?.isFinal ?? false;
}

/** The engine's client id of a site: its caller id, never a v3 client's (those are numbers). */
export function siteClientId(site: Pick<Site, 'id'>): string {
  return siteCallerId(site);
}

/** Whether an engine client id is a v1 site's (siteClientId) rather than a v3 client's. */
export function isSiteClientId(clientId: string): boolean {
  return isSiteCallerId(clientId);
}

/** A uuid-shaped id fixed per site, so the endpoint is found again without an index. */
export function siteEndpointId(site: Pick<Site, 'id'>): string {
  const hex = createHash('sha256').update(`site-endpoint:${site.id}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The site's endpoint, created or brought in line with the site: active at its callback URL, or
 * disabled (deliveries parked, never sent) when it has none; signed with its webhook secret.
 */
export async function siteEndpoint(context: SiteWebhookContext, site: Site): Promise<EndpointRecord> {
  const id = siteEndpointId(site);
  const existing = await context.store.getEndpoint(id);
  const wanted = {
    url: site.callbackUrl ?? '',
    events: [...site.webhookEvents],
    status: site.callbackUrl === null ? ('disabled' as const) : ('active' as const),
    secret: site.webhookSecret,
  };
  if (
    existing !== undefined &&
    existing.url === wanted.url &&
    existing.status === wanted.status &&
    existing.secret === wanted.secret &&
    existing.events.join(',') === wanted.events.join(',')
  ) {
    return existing;
  }
  const now = context.clock.now();
  const endpoint: EndpointRecord = {
    id,
    clientId: siteClientId(site),
    name: `${site.name} callback`,
    failureCount: 0,
    failedDeliveries: 0,
    lastDeliveryAt: null,
    lastSuccessAt: null,
    lastFailureAt: null,
    createdAt: now,
    ...existing,
    ...wanted,
    mirrorsSite: true,
    secretFingerprint: secretFingerprint(wanted.secret),
    updatedAt: now,
  };
  await context.store.saveEndpoint(endpoint);
  return endpoint;
}

export interface SiteEventInput {
  type: string;
  /** The body's `data` (for deposit events `{ deposit }`). */
  data: Record<string, unknown>;
  resource?: EventResource;
  requestId?: string | null;
  correlationId?: string | null;
  idempotencyKey?: string | null;
  /** Attempts of the delivery; 1 for the test webhook. Default: the retry schedule's length. */
  maxAttempts?: number;
  /** Deliver even if the site does not subscribe to the type (the test webhook). */
  evenIfUnsubscribed?: boolean;
}

/**
 * Stores a v1 event of the site and its delivery to the site's callback URL (when the site
 * subscribes to the type, or `evenIfUnsubscribed`): due now, or recorded and parked when the
 * site has no callback URL. The body is the contract's v1 webhook body.
 */
export async function emitSiteEvent(
  context: SiteWebhookContext,
  site: Site,
  input: SiteEventInput,
): Promise<{ event: EventRecord; deliveries: DeliveryRecord[] }> {
  const endpoint = await siteEndpoint(context, site);
  const isFinal = isFinalType(input.type);
  const sendAnyway = input.evenIfUnsubscribed === true;
  const reachable = endpoint.status === 'active';
  // emit() skips a disabled endpoint: a site without a callback URL gets the delivery recorded below.
  const owed = sendAnyway || site.webhookEvents.some((type) => type === input.type);
  const parked = !reachable && owed;
  const emitted = await context.service.emit({
    clientId: siteClientId(site),
    type: input.type,
    resource: input.resource ?? { type: 'site', id: site.id },
    payload: input.data,
    requestId: input.requestId ?? null,
    correlationId: input.correlationId ?? null,
    idempotencyKey: input.idempotencyKey ?? null,
    // Naming the endpoint reaches it whatever its status: only a reachable one is named.
    ...(sendAnyway && reachable ? { endpointId: endpoint.id } : {}),
    ...(input.maxAttempts !== undefined ? { maxAttempts: input.maxAttempts } : {}),
    bodyOf: (event) => ({ eventId: event.id, type: event.type, createdAt: event.createdAt.toISOString(), isFinal, data: event.payload }),
    announce: !parked,
  });
  if (!parked) return emitted;
  const maxAttempts = Math.min(input.maxAttempts ?? context.service.machine.maxAttempts, context.service.machine.maxAttempts);
  const delivery = await addDelivery(context, emitted.event, endpoint, maxAttempts, null);
  const event = (await context.store.getEvent(emitted.event.id)) ?? emitted.event;
  context.service.announce(event, [delivery]);
  return { event, deliveries: [delivery] };
}

/**
 * resendWebhookEvent: a new delivery of one of the site's events, with the body from the log (the
 * exact text first sent) to the site's callback URL; every attempt signs it anew with the site's
 * current secret. It gets as many attempts as the event's first delivery had (one for a test
 * webhook). Another site's event, or an unknown id, is `not_found`.
 */
export async function resendSiteEvent(
  context: SiteWebhookContext,
  site: Site,
  eventId: string,
): Promise<Outcome<{ event: EventRecord; delivery: DeliveryRecord }>> {
  const found = await context.service.getEvent(siteClientId(site), eventId);
  if (!found.ok) return found;
  const endpoint = await siteEndpoint(context, site);
  const first = [...found.deliveries].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0];
  const maxAttempts = first?.maxAttempts ?? context.service.machine.maxAttempts;
  const delivery = await addDelivery(context, found.event, endpoint, maxAttempts, endpoint.status === 'active' ? context.clock.now() : null);
  context.service.announce(found.event, [delivery]);
  return { ok: true, event: found.event, delivery };
}

/** A new pending delivery of a stored event to `endpoint`, due at `dueAt` (null: recorded, never sent). */
async function addDelivery(
  context: SiteWebhookContext,
  event: EventRecord,
  endpoint: EndpointRecord,
  maxAttempts: number,
  dueAt: Date | null,
): Promise<DeliveryRecord> {
  const { machine } = context.service;
  const now = context.clock.now();
  const delivery = newDelivery({
    id: randomUuid(context.random),
    event,
    endpoint,
    initialStatus: machine.initial,
    targeted: false,
    maxAttempts,
    dueAt,
    now,
  });
  await context.store.saveDelivery(delivery);
  const current = (await context.store.getEvent(event.id)) ?? event;
  const deliveries = await context.store.listDeliveries({ eventId: event.id });
  await context.store.saveEvent({ ...current, deliveryIds: [...current.deliveryIds, delivery.id], status: rollUp(deliveries, machine) });
  return delivery;
}
