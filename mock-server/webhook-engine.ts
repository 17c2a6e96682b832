// The webhook engine of one sandbox: its part of the sandbox's store, the rules (WebhookService) and the dispatcher
// that POSTs due deliveries through a transport (real HTTP by default; the sandbox control API
// wraps it for the inbox and fault injection) in the sandbox's delivery pool.
import type { Clock } from './clock.js';
import type { DeliveryPool } from './dispatch/delivery-pool.js';
import { Dispatcher } from './dispatch/dispatcher.js';
import type { Transport } from './dispatch/transport.js';
import { DeliveryMachine } from './domain/webhooks/delivery-machine.js';
import type { FeedChannel } from './domain/webhooks/event-feed.js';
import type { WebhookStore } from './store/webhook-store.js';
import { WebhookService } from './domain/webhooks/webhook-service.js';
import type { Random } from './random.js';

export interface WebhookEngine {
  store: WebhookStore;
  service: WebhookService;
  dispatcher: Dispatcher;
}

/** What an integrator may configure (the retry schedule, when failing endpoints are disabled), and the sandbox's channel of the stream's feed. */
export interface WebhookEngineOptions {
  retryScheduleSeconds?: number[] | undefined;
  /** Failed deliveries in a row that disable an endpoint (0: never); default the endpoint machine's. */
  failedDeliveriesLimit?: number | undefined;
  feed?: FeedChannel | undefined;
  /** Real time, which the dispatcher's claims are leased in; default Date.now. */
  realNow?: (() => number) | undefined;
}

export function createWebhookEngine(
  store: WebhookStore,
  clock: Clock,
  random: Random,
  transport: Transport,
  pool: DeliveryPool,
  options: WebhookEngineOptions = {},
): WebhookEngine {
  const machine = new DeliveryMachine(options.retryScheduleSeconds === undefined ? {} : { scheduleSeconds: options.retryScheduleSeconds });
  const limit = options.failedDeliveriesLimit === undefined ? {} : { failedDeliveriesLimit: options.failedDeliveriesLimit };
  const service = new WebhookService({ store, clock, random, machine, ...limit, ...(options.feed !== undefined ? { feed: options.feed } : {}) });
  const realNow = options.realNow === undefined ? {} : { realNow: options.realNow };
  return { store, service, dispatcher: new Dispatcher({ service, store, clock, transport, pool, ...realNow }) };
}
