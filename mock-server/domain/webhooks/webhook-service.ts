// The webhook engine's rules on the virtual clock: endpoints (create, read, update, delete,
// rotate-secret, the per-client limit, the endpoint machine: the client's switch and the
// disabling of an endpoint whose deliveries keep failing), events and their deliveries (emit),
// and the delivery machine's transitions (an attempt's outcome, a manual retry). No HTTP here:
// the dispatcher makes the attempts and reports them through recordAttempt.
import type { exchangeV3ErrorCodes } from '../../../generated/exchange-v3/contract-data.js';
import type { Clock } from '../../clock.js';
import type { Random } from '../../random.js';
import { DeliveryMachine, type DeliveryStatus } from './delivery-machine.js';
import { clientStatusChange, defaultFailedDeliveriesLimit, statusAfterFailures } from './endpoint-machine.js';
import { newWebhookSecret, randomUuid, secretFingerprint } from './ids.js';
import type { FeedChannel } from './event-feed.js';
import { KeyedLock } from './keyed-lock.js';
import type {
  AttemptError,
  AttemptRequest,
  DeliveryRecord,
  EndpointRecord,
  EndpointStatus,
  EventRecord,
  EventResource,
  EventStatus,
} from '../../store/records/webhook-records.js';
import { newDelivery } from './records.js';
import type { DeliveryFacets, EventFacets, LogPage, WebhookStore } from '../../store/webhook-store.js';

/** The catalog codes (exchangeV3ErrorCodes) the engine answers with. */
export type WebhookFailureCode = Extract<keyof typeof exchangeV3ErrorCodes, 'not_found' | 'webhook_endpoint_limit_reached' | 'invalid_state_transition'>;
export interface WebhookFailure {
  ok: false;
  code: WebhookFailureCode;
  message: string;
}
export type Outcome<T> = ({ ok: true } & T) | WebhookFailure;

export interface WebhookServiceOptions {
  store: WebhookStore;
  clock: Clock;
  random: Random;
  machine?: DeliveryMachine;
  /**
   * Endpoints one client may have. The v3 contract states it as data only in the example of
   * `result.limits.max_endpoints` (listWebhookEndpoints, 10), so it is an option here; the
   * wiring serves this value in `limits`.
   */
  maxEndpointsPerClient?: number | undefined;
  /** Where every emitted event is announced with its deliveries (the control API's stream). */
  feed?: FeedChannel;
  /**
   * Deliveries in a row that must end failed before an endpoint is disabled (the endpoint
   * machine's failed_deliveries limit by default); 0 never disables one.
   */
  failedDeliveriesLimit?: number;
}

export interface CreateEndpointInput {
  name: string;
  url: string;
  events: string[];
}

export interface UpdateEndpointInput {
  name?: string;
  url?: string;
  events?: string[];
  status?: EndpointStatus;
}

export interface EmitInput {
  clientId: string;
  type: string;
  resource: EventResource;
  payload: Record<string, unknown>;
  requestId?: string | null;
  correlationId?: string | null;
  idempotencyKey?: string | null;
  /**
   * Deliver only to this endpoint of the client (the test webhook's `endpoint_id`), whether or
   * not it subscribes to the type; it must still be active.
   */
  endpointId?: string;
  /** Attempts per delivery; 1 for the v1 test webhook ("no retries"). Default: the schedule's length. */
  maxAttempts?: number | undefined;
  /** The delivered body; default the v3 WebhookEventBody (id, type, created_at, resource, ids, data). */
  bodyOf?: (event: Omit<EventRecord, 'body' | 'deliveryIds' | 'status'>) => unknown;
  /** Announce the event to the feed once stored (default); false when the caller adds deliveries and announces it. */
  announce?: boolean;
}

export interface AttemptOutcome {
  /** The receiver's HTTP status; absent when there was no answer (see `error`). */
  status?: number;
  error?: AttemptError;
  durationMs: number;
  request: AttemptRequest;
  response?: { status: number; headers: Record<string, string>; body: string } | null;
}

/** What the dispatcher needs for one attempt: the current endpoint (url, secret) and the event body. */
export interface PreparedAttempt {
  delivery: DeliveryRecord;
  endpoint: EndpointRecord;
  event: EventRecord;
  /** The number of this attempt (one more than the attempts made). */
  attempt: number;
}

const unfinished = (status: DeliveryStatus, machine: DeliveryMachine): boolean => machine.awaitsAttempt(status);

export class WebhookService {
  readonly machine: DeliveryMachine;
  readonly maxEndpointsPerClient: number;
  readonly failedDeliveriesLimit: number;
  private readonly store: WebhookStore;
  private readonly clock: Clock;
  private readonly random: Random;
  private readonly lock = new KeyedLock();
  private readonly feed: FeedChannel | undefined;

  constructor(options: WebhookServiceOptions) {
    this.feed = options.feed;
    this.store = options.store;
    this.clock = options.clock;
    this.random = options.random;
    this.machine = options.machine ?? new DeliveryMachine();
    this.maxEndpointsPerClient = options.maxEndpointsPerClient ?? 10;
    const limit = options.failedDeliveriesLimit ?? defaultFailedDeliveriesLimit;
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError('the failed deliveries that disable an endpoint must be a whole number, 0 for never');
    this.failedDeliveriesLimit = limit;
  }

  // ---- endpoints ----

  async createEndpoint(clientId: string, input: CreateEndpointInput): Promise<Outcome<{ endpoint: EndpointRecord; secret: string }>> {
    return this.lock.run(clientId, async () => {
      if ((await this.store.countEndpoints(clientId)) >= this.maxEndpointsPerClient) {
        return fail('webhook_endpoint_limit_reached', `a client may have at most ${this.maxEndpointsPerClient} webhook endpoints`);
      }
      const now = this.clock.now();
      const secret = newWebhookSecret(this.random);
      const endpoint: EndpointRecord = {
        id: randomUuid(this.random),
        clientId,
        name: input.name,
        url: input.url,
        events: [...new Set(input.events)],
        status: 'active',
        secret,
        secretFingerprint: secretFingerprint(secret),
        failureCount: 0,
        failedDeliveries: 0,
        mirrorsSite: false,
        lastDeliveryAt: null,
        lastSuccessAt: null,
        lastFailureAt: null,
        createdAt: now,
        updatedAt: now,
      };
      await this.store.saveEndpoint(endpoint);
      return { ok: true, endpoint, secret };
    });
  }

  async getEndpoint(clientId: string, id: string): Promise<Outcome<{ endpoint: EndpointRecord }>> {
    const endpoint = await this.store.getEndpoint(id);
    if (endpoint === undefined || endpoint.clientId !== clientId) return fail('not_found', 'no such webhook endpoint');
    return { ok: true, endpoint };
  }

  listEndpoints(clientId: string): Promise<EndpointRecord[]> {
    return this.store.listEndpoints(clientId);
  }

  /**
   * Changes the given fields; a new status is the endpoint machine's client transition (disable,
   * enable). Disabling parks the endpoint's unfinished deliveries (out of the due queue, status
   * kept); enabling again queues them for now and starts both failure counts afresh.
   */
  async updateEndpoint(clientId: string, id: string, input: UpdateEndpointInput): Promise<Outcome<{ endpoint: EndpointRecord }>> {
    return this.lock.run(clientId, async () => {
      const found = await this.getEndpoint(clientId, id);
      if (!found.ok) return found;
      const endpoint = found.endpoint;
      const wasActive = endpoint.status === 'active';
      if (input.name !== undefined) endpoint.name = input.name;
      if (input.url !== undefined) endpoint.url = input.url;
      if (input.events !== undefined) endpoint.events = [...new Set(input.events)];
      if (input.status !== undefined) {
        const change = clientStatusChange(endpoint.status, input.status);
        if (change.ok) endpoint.status = change.transition.to;
      }
      // Setting an endpoint active again starts its failure counts afresh (the machine's enable).
      if (!wasActive && endpoint.status === 'active') {
        endpoint.failureCount = 0;
        endpoint.failedDeliveries = 0;
      }
      endpoint.updatedAt = this.clock.now();
      await this.store.saveEndpoint(endpoint);
      const isActive = endpoint.status === 'active';
      if (wasActive !== isActive) await this.requeueUnfinished(endpoint.id, isActive ? endpoint.updatedAt : null);
      return { ok: true, endpoint };
    });
  }

  /** Deletes the endpoint; its deliveries stay readable and its unfinished ones leave the queue. */
  async deleteEndpoint(clientId: string, id: string): Promise<Outcome<{ endpoint: EndpointRecord }>> {
    return this.lock.run(clientId, async () => {
      const found = await this.getEndpoint(clientId, id);
      if (!found.ok) return found;
      await this.store.deleteEndpoint(id);
      await this.requeueUnfinished(id, null);
      return found;
    });
  }

  /** A new one-time secret; the old one signs nothing from now on (attempts read the current one). */
  async rotateSecret(clientId: string, id: string): Promise<Outcome<{ endpoint: EndpointRecord; secret: string }>> {
    return this.lock.run(clientId, async () => {
      const found = await this.getEndpoint(clientId, id);
      if (!found.ok) return found;
      const endpoint = found.endpoint;
      const secret = newWebhookSecret(this.random);
      endpoint.secret = secret;
      endpoint.secretFingerprint = secretFingerprint(secret);
      endpoint.updatedAt = this.clock.now();
      await this.store.saveEndpoint(endpoint);
      return { ok: true, endpoint, secret };
    });
  }

  // ---- events ----

  /** Stores the event and one pending delivery, due now, per active endpoint subscribed to its type. */
  async emit(input: EmitInput): Promise<{ event: EventRecord; deliveries: DeliveryRecord[] }> {
    return this.lock.run(input.clientId, async () => {
      const now = this.clock.now();
      const base = {
        id: randomUuid(this.random),
        clientId: input.clientId,
        type: input.type,
        resource: { ...input.resource },
        payload: input.payload,
        requestId: input.requestId ?? null,
        correlationId: input.correlationId ?? null,
        idempotencyKey: input.idempotencyKey ?? null,
        createdAt: now,
      };
      const body = JSON.stringify((input.bodyOf ?? v3EventBody)(base));
      // A named endpoint is reached whatever its subscriptions and status (the contract's test
      // webhook); otherwise the active endpoints subscribed to the type, as for a real event.
      const endpoints = (await this.store.listEndpoints(input.clientId)).filter((e) =>
        input.endpointId !== undefined ? e.id === input.endpointId : e.status === 'active' && e.events.includes(input.type),
      );
      const maxAttempts = Math.min(input.maxAttempts ?? this.machine.maxAttempts, this.machine.maxAttempts);
      const deliveries = endpoints.map((endpoint) =>
        newDelivery({
          id: randomUuid(this.random),
          event: { id: base.id, clientId: input.clientId, type: input.type },
          endpoint,
          initialStatus: this.machine.initial,
          targeted: input.endpointId !== undefined,
          maxAttempts,
          dueAt: now,
          now,
        }),
      );
      const event: EventRecord = { ...base, body, status: rollUp(deliveries, this.machine), deliveryIds: deliveries.map((d) => d.id) };
      await this.store.saveEvent(event);
      for (const delivery of deliveries) await this.store.saveDelivery(delivery);
      if (input.announce !== false) this.announce(event, deliveries);
      return { event, deliveries };
    });
  }

  /** Tells the feed's followers about a stored event and the deliveries it just got. */
  announce(event: EventRecord, deliveries: readonly DeliveryRecord[]): void {
    this.feed?.publish(event, deliveries);
  }

  async getEvent(clientId: string, id: string): Promise<Outcome<{ event: EventRecord; deliveries: DeliveryRecord[] }>> {
    const event = await this.store.getEvent(id);
    if (event === undefined || event.clientId !== clientId) return fail('not_found', 'no such webhook event');
    return { ok: true, event, deliveries: await this.store.listDeliveries({ eventId: id }) };
  }

  /** One page of the client's events (store/log-pages.ts). */
  pageEvents: LogPage<EventRecord, EventFacets> = (clientId, request, filter) => this.store.pageEvents(clientId, request, filter);

  // ---- deliveries ----

  async getDelivery(clientId: string, id: string): Promise<Outcome<{ delivery: DeliveryRecord }>> {
    const delivery = await this.store.getDelivery(id);
    if (delivery === undefined || delivery.clientId !== clientId) return fail('not_found', 'no such webhook delivery');
    return { ok: true, delivery };
  }

  /** One page of the client's deliveries. */
  pageDeliveries: LogPage<DeliveryRecord, DeliveryFacets> = (clientId, request, filter) => this.store.pageDeliveries(clientId, request, filter);

  /** The machine's `retry` (failed → queued): one new attempt, due now. */
  async retry(clientId: string, deliveryId: string): Promise<Outcome<{ delivery: DeliveryRecord }>> {
    return this.lock.run(clientId, async () => {
      const found = await this.getDelivery(clientId, deliveryId);
      if (!found.ok) return found;
      const delivery = found.delivery;
      const decision = this.machine.nextStatus(delivery.status, 'retry');
      if (!decision.ok) return fail('invalid_state_transition', decision.reason);
      const now = this.clock.now();
      delivery.status = decision.to;
      delivery.nextAttemptAt = now;
      delivery.updatedAt = now;
      await this.store.saveDelivery(delivery);
      await this.refreshEventStatus(delivery.eventId);
      return { ok: true, delivery };
    });
  }

  /**
   * The delivery's next attempt, or null when none should be made: it no longer awaits one, or
   * its endpoint is gone or disabled (then it is parked: out of the due queue, status kept).
   */
  async prepareAttempt(deliveryId: string): Promise<PreparedAttempt | null> {
    const peek = await this.store.getDelivery(deliveryId);
    if (peek === undefined) return null;
    return this.lock.run(peek.clientId, async () => {
      const delivery = await this.store.getDelivery(deliveryId);
      if (delivery === undefined) return null;
      const endpoint = await this.store.getEndpoint(delivery.endpointId);
      const event = await this.store.getEvent(delivery.eventId);
      const reachable = endpoint !== undefined && (endpoint.status === 'active' || delivery.targeted);
      if (!unfinished(delivery.status, this.machine) || !reachable || event === undefined) {
        if (delivery.nextAttemptAt !== null) {
          delivery.nextAttemptAt = null;
          await this.store.saveDelivery(delivery);
        }
        return null;
      }
      return { delivery, endpoint, event, attempt: delivery.attempts.length + 1 };
    });
  }

  /**
   * One attempt's outcome: attempt_succeeded on a 2xx answer, attempt_failed otherwise, through
   * the machine with the attempts guards; keeps the endpoint's failure_count and last_* times and
   * the event's roll-up true.
   */
  async recordAttempt(deliveryId: string, outcome: AttemptOutcome): Promise<Outcome<{ delivery: DeliveryRecord }>> {
    const peek = await this.store.getDelivery(deliveryId);
    if (peek === undefined) return fail('not_found', 'no such webhook delivery');
    return this.lock.run(peek.clientId, async () => {
      const delivery = await this.store.getDelivery(deliveryId);
      if (delivery === undefined) return fail('not_found', 'no such webhook delivery');
      const attempt = delivery.attempts.length + 1;
      const succeeded = outcome.error === undefined && outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
      const decision = this.machine.nextStatus(
        delivery.status,
        succeeded ? 'attempt_succeeded' : 'attempt_failed',
        this.machine.attemptGuards(attempt, delivery.maxAttempts),
      );
      if (!decision.ok) return fail('invalid_state_transition', decision.reason);

      const now = this.clock.now();
      const delay = decision.to === 'retrying' ? this.machine.retryDelayMs(attempt + 1) : null;
      delivery.status = decision.to;
      delivery.endpointUrl = outcome.request.url;
      delivery.attempts = [
        ...delivery.attempts,
        {
          number: attempt,
          status: succeeded ? 'succeeded' : 'failed',
          at: now,
          durationMs: outcome.durationMs,
          request: outcome.request,
          response: outcome.response ? { status: outcome.response.status, headers: outcome.response.headers, body: outcome.response.body } : null,
          error: outcome.error ?? null,
        },
      ];
      delivery.nextAttemptAt = delay === null ? null : new Date(now.getTime() + delay);
      if (succeeded) delivery.deliveredAt = now;
      delivery.updatedAt = now;
      await this.store.saveDelivery(delivery);

      const endpoint = await this.store.getEndpoint(delivery.endpointId);
      if (endpoint !== undefined) {
        endpoint.lastDeliveryAt = now;
        if (succeeded) {
          endpoint.lastSuccessAt = now;
          endpoint.failureCount = 0;
          endpoint.failedDeliveries = 0;
        } else {
          endpoint.lastFailureAt = now;
          endpoint.failureCount += 1;
          if (delivery.status === 'failed') endpoint.failedDeliveries += 1;
        }
        await this.store.saveEndpoint(endpoint);
        await this.disableIfFailing(endpoint, now);
      }
      await this.refreshEventStatus(delivery.eventId);
      return { ok: true, delivery };
    });
  }

  /** Reset: forget every endpoint, event and delivery. */
  clear(): Promise<void> {
    return this.store.clear();
  }

  private async refreshEventStatus(eventId: string): Promise<void> {
    const event = await this.store.getEvent(eventId);
    if (event === undefined) return;
    const status = rollUp(await this.store.listDeliveries({ eventId }), this.machine);
    if (status !== event.status) await this.store.saveEvent({ ...event, status });
  }

  /**
   * The endpoint machine's failures_exceeded: an active endpoint whose last failedDeliveriesLimit
   * deliveries all ended failed is disabled, and its unfinished deliveries wait. A site's
   * callback mirrors the site, so it is left alone.
   */
  private async disableIfFailing(endpoint: EndpointRecord, now: Date): Promise<void> {
    if (endpoint.mirrorsSite) return;
    const next = statusAfterFailures(endpoint.status, endpoint.failedDeliveries, this.failedDeliveriesLimit);
    if (next === null) return;
    endpoint.status = next;
    endpoint.updatedAt = now;
    await this.store.saveEndpoint(endpoint);
    await this.requeueUnfinished(endpoint.id, null);
  }

  private async requeueUnfinished(endpointId: string, at: Date | null): Promise<void> {
    for (const delivery of await this.store.listDeliveries({ endpointId })) {
      if (!unfinished(delivery.status, this.machine)) continue;
      await this.store.saveDelivery({ ...delivery, nextAttemptAt: at });
    }
  }
}

/**
 * The event's status from its deliveries (x-assumption of WebhookEventStatus): pending while any
 * is unfinished, delivered or failed when all ended alike, partially_delivered otherwise. An
 * event without deliveries (no subscribed active endpoint) counts as delivered: nothing is owed.
 */
export function rollUp(deliveries: readonly Pick<DeliveryRecord, 'status'>[], machine: DeliveryMachine): EventStatus {
  if (deliveries.some((d) => unfinished(d.status, machine))) return 'pending';
  const delivered = deliveries.filter((d) => d.status === 'delivered').length;
  if (delivered === deliveries.length) return 'delivered';
  return delivered === 0 ? 'failed' : 'partially_delivered';
}

/** The v3 WebhookEventBody: the event's ids and resource, its payload under `data`. */
export function v3EventBody(event: Omit<EventRecord, 'body' | 'deliveryIds' | 'status'>): Record<string, unknown> {
  return {
    id: event.id,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    resource: event.resource,
    request_id: event.requestId,
    correlation_id: event.correlationId,
    idempotency_key: event.idempotencyKey,
    data: event.payload,
  };
}

function fail(code: WebhookFailureCode, message: string): WebhookFailure {
  return { ok: false, code, message };
}
