// The state of one mock server: the virtual clock, the seeded random source, the v3 keys and v1
// sites, the store (mock-server/store: the keys' meters, used nonces, idempotency records, the
// clock's setting; on a durable engine a journal of every domain record too), the webhook engine
// and the domain services (services.ts builds them). reset() wipes it all and re-seeds; the
// default key and site survive so configured CI credentials keep working.
import { exchangeV3Info } from '../generated/exchange-v3/contract-data.js';
import { exchangeV3Routes } from '../generated/exchange-v3/routes.js';
import { depositV1Webhooks } from './domain/accounts/deposit-webhook-events.js';
import { ApiKeyRegistry, type ApiKey, type KeyLimits } from './domain/accounts/api-keys.js';
import { allScopes } from './domain/accounts/scope-catalog.js';
import { SiteRegistry, type Site } from './domain/accounts/sites.js';
import type { KeyMeter, KeyUsage } from './domain/accounts/key-meter.js';
import { UsageBuffer } from './domain/accounts/usage-buffer.js';
import { VirtualClock, type ClockSetting } from './clock.js';
import { createRandom, type Random } from './random.js';
import { MemoryStore } from './store/memory/memory-store.js';
import type { Cells, SandboxStore } from './store/sandbox-store.js';
import { isIP } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Transport } from './dispatch/transport.js';
import { createWebhookEgress, type WebhookEgress, type WebhookEgressOptions } from './dispatch/webhook-egress.js';
import { createServices, runDueTimers, type SandboxServices } from './services.js';
import { createWebhookEngine, type WebhookEngine, type WebhookEngineOptions } from './webhook-engine.js';
import { WebhookFeed, type FeedChannel } from './domain/webhooks/event-feed.js';
import { noRecordMarks } from './domain/record-marks.js';
import { MarkedRecords } from './domain/marked-records.js';
import { MemoryDepositStore } from './store/memory/memory-deposits.js';
import { ClockSaves } from './store/clock-saves.js';
import { reportStoreFailure } from './store/report-store-failure.js';

export interface SandboxOptions extends WebhookEgressOptions {
  seed?: number | undefined;
  /** Fixed value of the default v3 token (for integrators' CI configuration). */
  token?: string | undefined;
  /** Fixed credentials of the default v1 site. */
  siteKey?: string | undefined;
  siteSecret?: string | undefined;
  /** Real time source of the virtual clock (tests may pass their own). */
  realNow?: (() => number) | undefined;
  /** Delays before each delivery attempt, in seconds; default the delivery machine's schedule. */
  webhookRetrySchedule?: number[] | undefined;
  /**
   * Deliveries in a row that must end failed (every attempt exhausted) before a v3 endpoint is
   * disabled; default the webhook-endpoint machine's limit, 0 never disables one.
   */
  webhookFailedDeliveriesLimit?: number | undefined;
  /** What GET /v1/public/webhooks/egress-ips answers; default the host the mock runs on. */
  webhookEgressIps?: string[] | undefined;
  /**
   * Where records live (mock-server/store); default a new memory store. On one with a journal
   * (sqlite:) startMockServer keeps the whole sandbox in it and resumes it at the next start.
   * A store serves one mock: startMockServer refuses one given to a mock before; the mock's
   * close() leaves it open, for its owner to close.
   */
  store?: SandboxStore | undefined;
  /** Live idempotency records one caller (a v3 key or a v1 site) may hold; default 100,000. */
  idempotencyRecordsPerCaller?: number | undefined;
}

/** Expired records a timer beat removes at the most, so a sweep never holds up requests for long. */
const sweepBatch = 1_000;

/**
 * The egress IPs by default: the mock sends every webhook from the host it runs on (x-assumption
 * on the control contract's Webhooks tag).
 */
export const defaultWebhookEgressIps: readonly string[] = ['127.0.0.1'];

/** A key's default limits: the contract's info.x-rate-limits. */
export const defaultKeyLimits: KeyLimits = {
  perMinute: exchangeV3Info['x-rate-limits'].requests_per_minute,
  daily: exchangeV3Info['x-rate-limits'].quota_daily,
  monthly: exchangeV3Info['x-rate-limits'].quota_monthly,
};

/** What one start, reset or load builds: the main random stream, the registries, the webhook engine and the domain services. */
export interface SandboxGeneration {
  readonly seed: number;
  readonly random: Random;
  readonly keys: ApiKeyRegistry;
  readonly sites: SiteRegistry;
  /**
   * The default key and site among the registries': the sandbox's own, carried over by a start
   * or a reset; a load puts the document's records of them in their place (with the mock's
   * credentials).
   */
  defaultKey: ApiKey;
  defaultSite: Site;
  readonly webhooks: WebhookEngine;
  /** Where the generation's events go to the webhook stream's followers, once installed. */
  readonly feed: FeedChannel;
  readonly services: SandboxServices;
}

/** A sandbox read from a snapshot (mock-server/snapshot), ready to take the place of the current one. */
export interface LoadedSandbox {
  seed: number;
  /** Where the main random stream resumes. */
  randomAt: number;
  clock: ClockSetting;
  /** Puts the loaded records into a new generation; throws when they do not fit together. */
  prepare(generation: SandboxGeneration): void;
  /**
   * Writes the loaded records the store keeps into the (emptied) store, live at `nowMs` (the
   * loaded clock's). Absent when the store's records are the sandbox's already and stay (a
   * restart on a durable store).
   */
  store?: (store: SandboxStore, nowMs: number) => Promise<void>;
}

/**
 * Keeps a durable store's copy of the domains' records up to date (mock-server/snapshot/
 * journal-writer.ts, its writes in order through journal-queue.ts); absent on the memory engine,
 * which pays nothing for it. Each resolves once its transaction is committed.
 */
export interface SandboxJournal {
  /** Writes what changed since the last write, as one transaction (what may wait aside). */
  flush(): Promise<void>;
  /** The same, with what may wait for a timer beat (a key's last_used_at): the beat and a close. */
  flushDeferred(): Promise<void>;
  /** Writes the whole sandbox anew (after a reset or a load). */
  rewrite(): Promise<void>;
  /**
   * Something may have changed a part of the sandbox that is not a record (an id counter, a
   * setting, a random stream) without marking one: the next flush compares the header rows.
   */
  headersMayChange(): void;
}

export class Sandbox {
  readonly clock: VirtualClock;
  /** The seed in use: the start seed until a reset with another or a load. */
  seedInUse: number;
  /**
   * The seed the mock was started with (the option: on a durable store the kept sandbox's, or
   * one drawn at start-up); reset() without a seed goes back to it, as resetSandbox says.
   */
  readonly startSeed: number;
  random!: Random;
  keys!: ApiKeyRegistry;
  sites!: SiteRegistry;
  /** The default key and site: their credentials are the mock's, their records the generation's. */
  defaultKey: ApiKey;
  defaultSite: Site;
  readonly store: SandboxStore;
  /** Each v3 key's rate window and quota counts. */
  readonly meters: Cells<KeyMeter>;
  /** Each v3 key's outcome counters per operation, counted here and added to the store in batches. */
  readonly usage: UsageBuffer;
  /** Nonces of signed v3 requests, kept for the signature window. */
  readonly usedNonces: Cells<true>;
  readonly idempotencyRecordsPerCaller: number;
  webhooks!: WebhookEngine;
  /** The domain services of this generation: rebuilt by reset(), so read them per request. */
  services!: SandboxServices;
  /** The egress policy, the mock's own listener and the one delivery pool (they outlive resets). */
  readonly egress: WebhookEgress;
  /**
   * How deliveries leave the mock. Real HTTP within the egress policy; the control API's fault
   * injection wraps it. Read on every attempt, so a wrapper applies to the running engine.
   */
  webhookTransport: Transport;
  readonly webhookEgressIps: readonly string[];
  /**
   * Every emitted webhook event with its deliveries, for the control API's stream; its followers
   * survive resets, its backlog does not (each generation publishes as a new stream). Stream ids
   * are eight hex digits, as the control contract's Last-Event-ID takes them.
   */
  readonly webhookFeed = new WebhookFeed(() => randomBytes(4).toString('hex'));
  /** The clock's setting on its way to the store: a durable store's answers wait for it (app.ts). */
  readonly clockSaves: ClockSaves;
  /** Set once a durable store's records are taken up (startMockServer); null on the memory engine. */
  journal: SandboxJournal | null = null;
  /**
   * Where every generation's services report the records they change, for the journal's next
   * flush to write; null on the memory engine (its services are given noRecordMarks).
   */
  readonly marked: MarkedRecords | null;
  private readonly webhookEngineOptions: WebhookEngineOptions;
  private dispatchIntervalMs: number | null = null;
  private timerLoop: { handle: NodeJS.Timeout; running: boolean } | null = null;

  constructor(options: SandboxOptions = {}) {
    this.clock = new VirtualClock(options.realNow);
    this.store = options.store ?? new MemoryStore();
    this.meters = this.store.cells<KeyMeter>('key-meters');
    this.usage = new UsageBuffer(this.store.cells<KeyUsage>('key-usage'), this.clock);
    this.usedNonces = this.store.cells<true>('nonces');
    this.idempotencyRecordsPerCaller = options.idempotencyRecordsPerCaller ?? 100_000;
    this.marked = this.store.journal === undefined ? null : new MarkedRecords();
    this.startSeed = options.seed ?? createRandom().seed;
    this.seedInUse = this.startSeed;
    // The default credentials draw from their own stream, so a reset with the same seed replays
    // every other id and secret exactly as a fresh start does.
    const credentials = createRandom(this.seedInUse ^ 0x5eed5eed);
    const now = this.clock.now();
    this.defaultKey = new ApiKeyRegistry(credentials, noRecordMarks).mint(
      { name: 'default', ...(options.token ? { token: options.token } : {}), scopes: allScopes(exchangeV3Routes), limits: defaultKeyLimits },
      now,
    );
    this.defaultSite = new SiteRegistry(credentials, noRecordMarks).create(
      {
        name: 'Default site',
        ...(options.siteKey ? { apiKey: options.siteKey } : {}),
        ...(options.siteSecret ? { apiSecret: options.siteSecret } : {}),
        webhookEvents: depositV1Webhooks,
      },
      now,
    );
    this.egress = createWebhookEgress(options);
    this.webhookTransport = this.egress.transport;
    const badIps = (options.webhookEgressIps ?? []).filter((ip) => isIP(ip) === 0);
    if (badIps.length > 0) throw new RangeError(`webhook egress IPs must be IP addresses: ${badIps.join(', ')}`);
    this.webhookEgressIps = options.webhookEgressIps ?? defaultWebhookEgressIps;
    this.webhookEngineOptions = {
      retryScheduleSeconds: options.webhookRetrySchedule,
      failedDeliveriesLimit: options.webhookFailedDeliveriesLimit,
      realNow: options.realNow,
    };
    this.install(this.buildGeneration(this.seedInUse));
    // The store keeps the clock's setting, so a durable engine resumes the virtual time it left.
    this.clockSaves = new ClockSaves(this.clock, this.store);
    // Retries that an advance makes due are sent at once, asynchronously like real deliveries
    // (POST /__mock/webhooks/run-due waits for them). A run that fails (a store that cannot read
    // a delivery) ends here, as the dispatcher's own beat's do: unheard, it would end the process.
    this.clock.onAdvance(() => {
      void this.webhooks.dispatcher.runDue().catch(() => undefined);
    });
    // What an advance made expire goes at once, not on the next beat.
    this.clock.onAdvance((now) => this.store.sweepExpired(now.getTime(), sweepBatch).then(() => undefined));
    // Payment windows, verifications and deposits run out as the clock advances (their events
    // then wait for the dispatcher, or run-due); the services of the current generation.
    this.clock.onAdvance(async () => {
      await runDueTimers(this.services);
    });
    // Last: what the advance and its timers changed is written before anyone hears of it.
    this.clock.onAdvance(() => this.journal?.flush());
  }

  /**
   * Sends due deliveries every `intervalMs` of real time (the running server does), and on the
   * same beat applies the domains' due timers: on a running clock a payment window or a deposit's
   * lifetime ends without an advance, and its webhook goes out then, whether or not anyone
   * reads the record.
   */
  startDispatching(intervalMs: number): void {
    this.dispatchIntervalMs = intervalMs;
    this.webhooks.dispatcher.start(intervalMs);
    if (this.timerLoop === null) {
      const loop = { handle: setInterval(() => void this.runTimers(loop), intervalMs), running: false };
      loop.handle.unref();
      this.timerLoop = loop;
    }
  }

  stopDispatching(): void {
    this.dispatchIntervalMs = null;
    this.webhooks.dispatcher.stop();
    if (this.timerLoop !== null) clearInterval(this.timerLoop.handle);
    this.timerLoop = null;
  }

  private async runTimers(loop: { running: boolean }): Promise<void> {
    if (loop.running) return; // the previous beat is still storing its events
    loop.running = true;
    try {
      // Whatever fell due, and what could wait for the beat (a key's last_used_at); a beat that
      // changed nothing writes nothing.
      await runDueTimers(this.services);
      await this.journal?.flushDeferred();
      await this.usage.flush();
      await this.store.sweepExpired(this.clock.nowMs(), sweepBatch);
    } catch (error) {
      reportStoreFailure('a timer beat failed', error);
    } finally {
      loop.running = false;
    }
  }

  /** Takes up what a durable store kept from an earlier run (the clock's setting). */
  async resume(): Promise<void> {
    const setting = await this.store.clock.load();
    if (setting !== undefined) this.clock.restore(setting);
  }

  /** Wipes every record and re-seeds, keeping the default key and site; the clock returns to real time. */
  async reset(seed?: number): Promise<void> {
    this.clock.reset();
    this.defaultKey.lastUsedAt = null;
    this.usage.clear();
    await this.store.clear();
    this.install(this.buildGeneration(seed ?? this.startSeed));
    await this.journal?.rewrite();
  }

  /**
   * Replaces the whole sandbox with a loaded one, or leaves it untouched: `prepare` fills a new
   * generation (built from `seed`, the main stream resumed at `randomAt`) with the loaded records
   * and may throw; only once it has returned are the store's records replaced (when the loaded
   * sandbox brings its own) and the clock set. The default key and site keep their credentials,
   * as after a reset; `prepare` gives them their records. A durable store's journal is rewritten
   * with the new sandbox.
   */
  async replace(loaded: LoadedSandbox): Promise<void> {
    const generation = this.buildGeneration(loaded.seed, loaded.randomAt);
    loaded.prepare(generation);
    this.usage.clear();
    if (loaded.store !== undefined) await this.store.clear();
    this.clock.restore(loaded.clock);
    // Emptying the store took its clock setting with it: keep the loaded one, as every clock
    // change is kept, so a restart on a durable store resumes it.
    if (loaded.store !== undefined) await this.clockSaves.again();
    await loaded.store?.(this.store, this.clock.nowMs());
    this.install(generation);
    await this.journal?.rewrite();
  }

  private buildGeneration(seed: number, randomAt?: number): SandboxGeneration {
    const random = createRandom(seed, randomAt);
    const marks = this.marked ?? noRecordMarks;
    const keys = new ApiKeyRegistry(random, marks);
    const sites = new SiteRegistry(random, marks);
    keys.adopt(this.defaultKey);
    sites.adopt(this.defaultSite);
    const transport: Transport = (request, signal) => this.webhookTransport(request, signal);
    const feed = this.webhookFeed.channel();
    const webhooks = createWebhookEngine(this.store.webhooks, this.clock, random, transport, this.egress.pool, { ...this.webhookEngineOptions, feed });
    const services = createServices({
      clock: this.clock,
      seed,
      random,
      emit: (input) => webhooks.service.emit(input),
      siteWebhooks: () => ({ store: webhooks.store, service: webhooks.service, clock: this.clock, random }),
      defaultClient: this.defaultKey.client,
      marks,
      depositStore: (fields) => this.store.deposits?.(fields) ?? new MemoryDepositStore(fields),
    });
    return { seed, random, keys, sites, defaultKey: this.defaultKey, defaultSite: this.defaultSite, webhooks, feed, services };
  }

  private install(generation: SandboxGeneration): void {
    this.webhooks?.dispatcher.stop();
    this.seedInUse = generation.seed;
    this.random = generation.random;
    this.keys = generation.keys;
    this.sites = generation.sites;
    this.defaultKey = generation.defaultKey;
    this.defaultSite = generation.defaultSite;
    this.webhooks = generation.webhooks;
    this.services = generation.services;
    this.webhookFeed.install(generation.feed);
    if (this.dispatchIntervalMs !== null) this.webhooks.dispatcher.start(this.dispatchIntervalMs);
  }
}
