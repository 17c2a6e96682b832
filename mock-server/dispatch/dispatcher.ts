// Sends due deliveries: claims them from the store's due queue on the virtual clock, one at a
// time as a place in the sandbox's one delivery pool frees up, makes each attempt (signed POST of
// the event's exact body, aborted after the machine's attempt timeout) and reports every outcome
// through the service, which applies the machine. However many runs overlap, no more attempts are
// in flight than the pool allows. A claim is a lease in real time: every process sharing the
// store attempts a due delivery once, and a delivery whose claimant died (its lease ran out
// unrecorded) gets that attempt recorded as failed with `claim_expired`, so the retry the
// schedule then makes is marked as one (at least once: the receiver may have had the lost one).
// Per-endpoint ordering is not promised: deliveries of one endpoint may be in flight together.
import type { Clock } from '../clock.js';
import type { AttemptOutcome, WebhookService } from '../domain/webhooks/webhook-service.js';
import type { DeliveryRecord } from '../store/records/webhook-records.js';
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
  /** Default: real HTTP within the default egress policy (local). */
  transport?: Transport;
  /** Real time, which leases run on (a frozen virtual clock must not keep a dead claimant's lease alive); default Date.now. */
  realNow?: () => number;
}

/** How long a claim outlives the attempt's own timeout (the store's writes around it). */
const leaseMarginMs = 10_000;

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
  private readonly transport: Transport;
  private readonly realNow: () => number;
  /** Deliveries with an attempt under way or waiting for a place: never attempted twice at once. */
  private readonly inFlight = new Set<string>();
  /** The runs of runDue under way, each until its own attempts ended. */
  private readonly runs = new Set<Promise<DispatchSummary>>();
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;

  constructor(options: DispatcherOptions) {
    this.service = options.service;
    this.store = options.store;
    this.clock = options.clock;
    this.pool = options.pool ?? new DeliveryPool();
    this.transport = options.transport ?? httpTransport({ policy: new EgressPolicy() });
    this.realNow = options.realNow ?? Date.now;
  }

  /**
   * Attempts every delivery due at the current virtual time, each at most once per call (a
   * retry it schedules for the same instant waits for the next call); resolves when all ended,
   * and when the other runs of this process under way meanwhile ended too (the one a clock
   * advance or a test webhook started): a due delivery they claimed is passed over here, and
   * whoever waits for this run (POST /__mock/webhooks/run-due) must find its attempt recorded,
   * also on an engine whose writes take real I/O. The summary counts this run's attempts.
   */
  async runDue(): Promise<DispatchSummary> {
    const run = this.claimAndAttempt();
    this.runs.add(run);
    try {
      const summary = await run;
      await Promise.allSettled([...this.runs].filter((other) => other !== run));
      return summary;
    } finally {
      this.runs.delete(run);
    }
  }

  /**
   * As many claimants as the pool has places take one due delivery at a time, so a claim is
   * made only when its attempt can start, and its lease need only outlast one attempt.
   */
  private async claimAndAttempt(): Promise<DispatchSummary> {
    const now = this.clock.now();
    const summary: DispatchSummary = { attempted: 0, delivered: 0, retrying: 0, failed: 0, skipped: 0, refused: 0 };
    /** Claimed in this call: attempted, or held back unattempted (given back at the end). */
    const seen = new Set<string>();
    const heldBack: string[] = [];
    const claimant = async (): Promise<void> => {
      for (;;) {
        const result = await this.pool.run(async () => {
          const leaseFrom = this.realNow();
          const lease = { nowMs: leaseFrom, untilMs: leaseFrom + this.service.machine.attemptTimeoutMs + leaseMarginMs };
          const [claimed] = await this.store.claimDue(now, 1, lease);
          if (claimed === undefined) return null;
          const id = claimed.delivery.id;
          if (seen.has(id) || this.inFlight.has(id)) {
            heldBack.push(id); // stays leased to this call, so the next claim passes over it
            return 'held';
          }
          seen.add(id);
          return claimed.lostClaim ? this.recordLost(claimed.delivery) : this.attemptClaimed(id);
        });
        if (result === null) return;
        if (result === 'held') continue;
        if (result !== 'skipped' && result !== 'refused') summary.attempted += 1;
        summary[result] += 1;
      }
    };
    try {
      await Promise.all(Array.from({ length: this.pool.size }, claimant));
    } finally {
      await this.store.releaseClaims(heldBack);
    }
    return summary;
  }

  /** The attempt of a delivery this dispatcher claimed, inside the pool place the claim was made in. */
  private async attemptClaimed(deliveryId: string): Promise<AttemptResult> {
    this.inFlight.add(deliveryId);
    try {
      return await this.send(deliveryId);
    } finally {
      this.inFlight.delete(deliveryId);
    }
  }

  /** Records the attempt a dead claimant made (or was about to make) as failed; the schedule retries it. */
  private async recordLost(delivery: DeliveryRecord): Promise<AttemptResult> {
    const lost: AttemptOutcome = {
      error: { code: 'claim_expired', message: 'the process that claimed this attempt stopped before recording its outcome; the receiver may have received it' },
      request: { url: delivery.endpointUrl, headers: {}, body: '' },
      durationMs: 0,
    };
    return this.outcome(await this.service.recordAttempt(delivery.id, lost));
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
    return this.outcome(await this.service.recordAttempt(deliveryId, outcome));
  }

  private outcome(recorded: Awaited<ReturnType<WebhookService['recordAttempt']>>): AttemptResult {
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
