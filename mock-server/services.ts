// The composition root of the domain services: every service of one sandbox generation (a start
// or a reset) is built here, once, with what it needs passed to its constructor: the clock, a
// Random stream of its own, where its webhook events go, and the other services it uses. No
// service finds another by itself; the sandbox keeps the result and handlers read it per request.
import type { Clock } from './clock.js';
import type { Client } from './domain/accounts/api-keys.js';
import { AmlScreening } from './domain/aml/aml-checks.js';
import { DepositAmlScreening } from './domain/deposits/deposit-aml.js';
import { DepositService, type DepositServiceOptions } from './domain/deposits/deposit-service.js';
import { StaticAddressService } from './domain/deposits/static-address-service.js';
import { ExchangeCatalog } from './domain/exchange/catalog/catalog-service.js';
import { OrderService } from './domain/exchange/order-service.js';
import { PartnerBook } from './domain/exchange/partner.js';
import { PaymentDetailsSource } from './domain/exchange/payment-details.js';
import { QuoteBook } from './domain/exchange/quotes.js';
import { ReviewBook } from './domain/exchange/reviews.js';
import { UploadIntentService } from './domain/files/upload-intent-service.js';
import { VerificationService } from './domain/verifications/verification-service.js';
import type { RecordMarks } from './domain/record-marks.js';
import type { EmitInput } from './domain/webhooks/webhook-service.js';
import type { SiteWebhookContext } from './domain/webhooks/site-endpoint.js';
import { createRandom, type Random } from './random.js';

/**
 * What each service's stream mixes into the sandbox seed, so its ids and data do not depend on
 * what other parts of the mock have drawn. Changing one changes that service's seeded values.
 */
const seedSalts = {
  catalog: 0xca7a106,
  quotes: 0x0a07e5,
  paymentDetails: 0x9a7de7,
  orders: 0x0bde7,
  reviews: 0x4e71e3,
  partners: 0x9a47e2,
  uploads: 0xf11e5,
  verifications: 0x7e71f,
  deposits: 0x0de9051,
  staticAddresses: 0x57a71c,
} as const;

export interface ServiceDependencies {
  clock: Clock;
  /** The sandbox seed of this generation. */
  seed: number;
  /** The sandbox's main stream (keys, sites, webhook ids): AML check ids draw from it too. */
  random: Random;
  /** Where order.* events go: the sandbox's webhook engine, read at each emission. */
  emit: (input: EmitInput) => Promise<unknown>;
  /** Where deposit.* events go: the sandbox's webhook engine, read at each emission. */
  siteWebhooks: () => SiteWebhookContext;
  /** The default key's client: its partner history and reviews are seeded. */
  defaultClient: Client;
  /** Where every service reports the records it creates, changes or deletes (a durable store's journal). */
  marks: RecordMarks;
  /** Where the deposits are kept: the engine's (sandbox.ts). */
  depositStore: DepositServiceOptions['store'];
}

export interface SandboxServices {
  readonly catalog: ExchangeCatalog;
  readonly quotes: QuoteBook;
  /** Where each new order is paid (order-request.ts). */
  readonly paymentDetails: PaymentDetailsSource;
  readonly orders: OrderService;
  readonly reviews: ReviewBook;
  readonly partners: PartnerBook;
  readonly uploads: UploadIntentService;
  readonly verifications: VerificationService;
  readonly deposits: DepositService;
  readonly staticAddresses: StaticAddressService;
  readonly aml: AmlScreening;
  readonly depositAml: DepositAmlScreening;
}

export function createServices(dependencies: ServiceDependencies): SandboxServices {
  const { clock, seed, defaultClient, marks } = dependencies;
  const streamOf = (service: keyof typeof seedSalts) => createRandom((seed ^ seedSalts[service]) >>> 0);

  const catalog = new ExchangeCatalog(clock, streamOf('catalog'));
  const quotes = new QuoteBook(clock, streamOf('quotes'), marks);
  const paymentDetails = new PaymentDetailsSource(streamOf('paymentDetails'));
  const aml = new AmlScreening(clock, dependencies.random, marks);
  const deposits: DepositService = new DepositService({
    clock,
    random: streamOf('deposits'),
    webhooks: dependencies.siteWebhooks,
    // Every Deposit view shows its AML status as it stands.
    beforeView: (deposit) => depositAml.syncStatus(deposit),
    // The chain watcher also watches the orders' payment addresses.
    otherPayments: {
      claim: (tx): boolean => orders.receivePayment(tx) !== null,
      confirmationsAdded: (tx): void => orders.paymentConfirmationsChanged(tx.hash),
    },
    marks,
    store: dependencies.depositStore,
  });
  const depositAml = new DepositAmlScreening(clock, aml.provider, deposits.chain, marks, (deposit) => deposits.changed(deposit));
  const chain = { confirmedAtMs: (hash: string): number => deposits.chain.confirmedAtMs(deposits.chain.require(hash)) };
  const orders: OrderService = new OrderService({ clock, random: streamOf('orders'), emit: dependencies.emit, chain, reserves: catalog, marks });
  const reviews = new ReviewBook(clock, marks);
  reviews.seed(String(defaultClient.id), streamOf('reviews'));
  const partners = new PartnerBook(clock, marks);
  partners.seedHistory(defaultClient, streamOf('partners'));
  const uploads = new UploadIntentService(clock, streamOf('uploads'), marks);
  const verifications = new VerificationService(clock, streamOf('verifications'), uploads, orders, marks);

  const staticAddresses = new StaticAddressService(clock, streamOf('staticAddresses'), deposits, marks);

  return { catalog, quotes, paymentDetails, orders, reviews, partners, uploads, verifications, deposits, staticAddresses, aml, depositAml };
}

/**
 * Applies every time-driven transition now due (payment windows, verification expiry, deposit
 * expiry and confirmations, quotes no longer recognised) and resolves once their events are
 * stored; each record changed is marked for the journal by its service. Cheap when nothing is
 * due: each service takes its due records from a queue. The order is fixed, so a seed replays
 * the same event ids whatever a client touched first; a verification that expires tells its
 * order, whose events the orders' flush then waits for.
 */
export async function runDueTimers(services: SandboxServices): Promise<void> {
  const { orders, verifications, deposits, quotes } = services;
  quotes.sweep();
  orders.tick();
  verifications.tick();
  await orders.flush();
  deposits.tick();
  await deposits.flush();
}
