// Sends due deliveries: reads the store's due queue on the virtual clock, makes each attempt
// (signed POST of the event's exact body, aborted after the machine's attempt timeout) through
// the sandbox's one delivery pool, and reports every outcome through the service, which applies
// the machine. However many runs overlap, no more attempts are in flight than the pool allows.
// Per-endpoint ordering is not promised: deliveries of one endpoint may be in flight together.
import type { Clock } from '../clock.js';
import type { AttemptOutcome, WebhookService } from '../domain/webhooks/webhook-service.js';
import type { WebhookStore } from '../store/webhook-store.js';
import { DeliveryPool } from './delivery-pool.js';
import { EgressPolicy } from './egress-policy.js';
import { httpTransport } from './http-transport.js';
import { deliveryHeaders } from './sign.js';
import { attemptError, type Transport } from './transport.js';

export interface DispatcherOptions {
  service: WebhookService;
  store: WebhookStore;
  clock: Clock;
  /** Where attempts wait for a place (default: a pool of its own of the default size). */
  pool?: DeliveryPool;
  /** Due deliveries read from the store at a time (default 500). */
  batchSize?: number;
  /** Default: real HTTP within the default egress policy (local). */
  transport?: Transport;
}

export type AttemptResult = 'delivered' | 'retrying' | 'failed' | 'skipped' | 'refused';

export interface DispatchSummary {
  /** Attempts made. */
  attempted: number;
  delivered: number;
  /** Attempts that failed with attempts left (now retrying). */
  retrying: number;
  /** Attempts after which the delivery is failed. */
  failed: number;
  /** Due deliveries not attempted (endpoint gone or disabled, delivery no longer awaiting one). */
  skipped: number;
  /** Outcomes the machine refused (the delivery changed under the attempt). */
  refused: number;
}

export class Dispatcher {
  private readonly service: WebhookService;
  private readonly store: WebhookStore;
  private readonly clock: Clock;
  private readonly pool: DeliveryPool;
  private readonly batchSize: number;
  private readonly transport: Transport;
  /** Deliveries with an attempt under way or waiting for a place: never attempted twice at once. */
  private readonly inFlight = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;

  constructor(options: DispatcherOptions) {
    this.service = options.service;
    this.store = options.store;
    this.clock = options.clock;
    this.pool = options.pool ?? new DeliveryPool();
    this.batchSize = Math.max(1, options.batchSize ?? 500);
    this.transport = options.transport ?? httpTransport({ policy: new EgressPolicy() });
  }

  /**
   * Attempts every delivery due at the current virtual time, each at most once per call (a
   * retry it schedules for the same instant waits for the next call); resolves when all ended.
   */
  async runDue(): Promise<DispatchSummary> {
    const now = this.clock.now();
    const summary: DispatchSummary = { attempted: 0, delivered: 0, retrying: 0, failed: 0, skipped: 0, refused: 0 };
    const seen = new Set<string>();
    for (;;) {
      const limit = seen.size + this.inFlight.size + this.batchSize;
      const page = await this.store.dueDeliveries(now, limit);
      const fresh = page.filter((d) => !seen.has(d.id) && !this.inFlight.has(d.id)).map((d) => d.id);
      if (fresh.length === 0) break;
      for (const id of fresh) seen.add(id);
      await Promise.all(
        fresh.map(async (id) => {
          const result = await this.attempt(id);
          if (result !== 'skipped' && result !== 'refused') summary.attempted += 1;
          summary[result] += 1;
        }),
      );
      if (page.length < limit) break;
    }
    return summary;
  }

  /** One attempt of one delivery as soon as the pool has room (whether due or not), unless it is in flight already. */
  async attempt(deliveryId: string): Promise<AttemptResult> {
    if (this.inFlight.has(deliveryId)) return 'skipped';
    this.inFlight.add(deliveryId);
    try {
      return await this.pool.run(() => this.send(deliveryId));
    } finally {
      this.inFlight.delete(deliveryId);
    }
  }

  private async send(deliveryId: string): Promise<AttemptResult> {
    const prepared = await this.service.prepareAttempt(deliveryId);
    if (prepared === null) return 'skipped';
    const { delivery, endpoint, event, attempt } = prepared;
    const headers = deliveryHeaders({
      body: event.body,
      secret: endpoint.secret,
      eventId: event.id,
      eventType: event.type,
      deliveryId: delivery.id,
      attempt,
      now: this.clock.now(),
    });
    const request = { url: endpoint.url, headers, body: event.body };
    // Durations are real time: the virtual clock may be frozen while the receiver answers.
    const started = performance.now();
    let outcome: AttemptOutcome;
    try {
      const response = await this.transport(request, AbortSignal.timeout(this.service.machine.attemptTimeoutMs));
      outcome = { status: response.status, response, request, durationMs: elapsed(started) };
    } catch (error) {
      outcome = { error: attemptError(error), request, durationMs: elapsed(started) };
    }
    const recorded = await this.service.recordAttempt(deliveryId, outcome);
    if (!recorded.ok) return 'refused';
    const status = recorded.delivery.status;
    return status === 'delivered' || status === 'retrying' || status === 'failed' ? status : 'refused';
  }

  /** Real-time operation: runDue every `intervalMs` (unref'd, so it never keeps the process alive). */
  start(intervalMs = 1000): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => {
      if (this.ticking) return;
      this.ticking = true;
      this.runDue()
        .catch(() => undefined)
        .finally(() => {
          this.ticking = false;
        });
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
