// Quotes: an amount priced on a route at its current state, held for the quote TTL so an
// order may cite it (order-request.ts). Kept per client; expired quotes are kept a while so
// citing one answers quote_expired rather than "unknown". A snapshot keeps each quote with the
// floating step and reserve of the route state it was priced on, from which that state is rebuilt.
import type { AmountSide, Quote } from '../../../generated/exchange-v3/types.js';
import type { SandboxStateExchangeQuotes } from '../../../generated/sandbox-control/types.js';
import type { Clock } from '../../clock.js';
import { isoTime } from '../../iso-time.js';
import { createRandom, type Random } from '../../random.js';
import { requireOneOf, StateRejected } from '../state-rejected.js';
import type { ExchangeCatalog } from './catalog/catalog-service.js';
import { v3Enum } from './contract-enums.js';
import { randomUuid } from '../webhooks/ids.js';
import { FifosByOwner } from '../../store/fifo.js';
import { OrderedShardedMap } from '../../store/ordered-sharded-map.js';
import { quoteTtlSeconds } from './catalog/quote-ttl.js';
import { routeSnapshot, type RouteState } from './catalog/route-state.js';
import type { Priced } from './catalog/pricing.js';
import type { RecordMarks } from '../record-marks.js';

export interface QuoteRecord {
  clientId: string;
  quote: Quote;
  expiresAtMs: number;
}

/**
 * What is kept of a quote: its id, the priced amounts and a reference to the route state it was
 * priced on (states are shared and never change), from which the answer is rebuilt when an order
 * cites it. About a quarter of the memory of the Quote object.
 */
interface StoredQuote {
  clientId: string;
  id: string;
  state: RouteState;
  side: AmountSide;
  priced: Priced;
  createdAtMs: number;
  expiresAtMs: number;
}

const amountSides = v3Enum<AmountSide>('AmountSide');

/** How long an expired quote is still recognised (then it is forgotten). */
const keepExpiredMs = 24 * 3600 * 1000;
/**
 * The quotes one client holds at the most, expired ones included: past it, that client's oldest
 * is forgotten. A bound per client, so one client's flood of quotes forgets none of another's.
 */
export const maxQuotesPerClient = 100_000;

export class QuoteBook {
  private readonly quotes = new OrderedShardedMap<string, StoredQuote>();
  /** Each client's quotes, oldest first: every quote lives one TTL, so that is expiry order too. */
  private readonly byClient = new FifosByOwner<string, StoredQuote>();

  constructor(
    private readonly clock: Clock,
    private random: Random,
    private readonly marks: RecordMarks,
    private readonly maxPerClient = maxQuotesPerClient,
  ) {}

  create(clientId: string, state: RouteState, side: AmountSide, priced: Priced): Quote {
    this.forgetExpired(clientId);
    const createdAtMs = this.clock.nowMs();
    const stored: StoredQuote = {
      clientId,
      id: randomUuid(this.random),
      state,
      side,
      priced,
      createdAtMs,
      expiresAtMs: createdAtMs + quoteTtlSeconds * 1000,
    };
    this.keep(stored);
    return quoteOf(stored);
  }

  /** The client's quote with this id, expired or not; another client's is not found. */
  find(clientId: string, id: string): QuoteRecord | undefined {
    const stored = this.quotes.get(id);
    return stored?.clientId === clientId ? { clientId, quote: quoteOf(stored), expiresAtMs: stored.expiresAtMs } : undefined;
  }

  isExpired(record: QuoteRecord): boolean {
    return record.expiresAtMs <= this.clock.nowMs();
  }

  /** The book as a snapshot holds it; `withRecords` false: the quotes left out (a journal's header). */
  exportState(withRecords = true): SandboxStateExchangeQuotes {
    return { random: this.random.state(), quotes: withRecords ? [...this.quotes.values()].map(quoteState) : [] };
  }

  /** One quote as exportState lists it; undefined when it is gone. */
  exportRecord(id: string): SandboxStateExchangeQuotes['quotes'][number] | undefined {
    const stored = this.quotes.get(id);
    return stored === undefined ? undefined : quoteState(stored);
  }

  /**
   * Replaces the quotes with the snapshot's, each on its route's state rebuilt by the catalog;
   * `requireClient` throws StateRejected for a client id no key has.
   */
  restoreState(state: SandboxStateExchangeQuotes, catalog: ExchangeCatalog, requireClient: (clientId: string, pointer: string) => void, pointer: string): void {
    this.quotes.clear();
    this.byClient.clear();
    state.quotes.forEach((q, index) => {
      const at = `${pointer}/quotes/${index}`;
      if (this.quotes.has(q.id)) throw new StateRejected(`${at}/id`, `quote ${q.id} is listed twice`);
      requireClient(q.clientId, `${at}/clientId`);
      const route = catalog.route(q.routeId);
      if (route === undefined) throw new StateRejected(`${at}/routeId`, `${q.routeId} is not a route`);
      if (route.rateType === 'fixed' && q.step !== 0) throw new StateRejected(`${at}/step`, `route ${route.id} has a fixed rate: its only step is 0`);
      this.keep({
        clientId: q.clientId,
        id: q.id,
        state: catalog.stateAt(route, q.step, q.reserve),
        side: requireOneOf(q.side, amountSides, `${at}/side`),
        priced: { amountIn: q.amountIn, amountOut: q.amountOut, fee: q.fee },
        createdAtMs: q.createdAtMs,
        expiresAtMs: q.expiresAtMs,
      });
    });
    this.random = createRandom(this.random.seed, state.random);
  }

  /** Forgets every client's quotes expired longer than they are recognised (the timer beat). */
  sweep(): void {
    for (const clientId of this.byClient.owners()) this.forgetExpired(clientId);
  }

  private keep(stored: StoredQuote): void {
    this.quotes.set(stored.id, stored);
    this.marks.changed('quote', stored.id);
    for (const old of this.byClient.push(stored.clientId, stored, this.maxPerClient)) this.forget(old);
  }

  private forget(stored: StoredQuote): void {
    this.quotes.delete(stored.id);
    this.marks.removed('quote', stored.id);
  }

  /** Forgets the client's quotes expired long enough. */
  private forgetExpired(clientId: string): void {
    const horizon = this.clock.nowMs() - keepExpiredMs;
    for (const old of this.byClient.shiftWhile(clientId, (quote) => quote.expiresAtMs <= horizon)) this.forget(old);
  }
}

function quoteState(q: StoredQuote): SandboxStateExchangeQuotes['quotes'][number] {
  return {
    id: q.id,
    clientId: q.clientId,
    routeId: q.state.route.id,
    side: q.side,
    amountIn: q.priced.amountIn,
    amountOut: q.priced.amountOut,
    fee: q.priced.fee,
    step: q.state.step,
    reserve: q.state.limits.reserve,
    createdAtMs: q.createdAtMs,
    expiresAtMs: q.expiresAtMs,
  };
}

/** The contract's Quote of a stored quote: the same answer its creation gave. */
function quoteOf(stored: StoredQuote): Quote {
  const { state, priced } = stored;
  const { route } = state;
  return {
    id: stored.id,
    route_id: route.id,
    amount_side: stored.side,
    amount_in: priced.amountIn,
    amount_out: priced.amountOut,
    rate: state.course,
    fee: { amount: priced.fee, currency: route.to.spec.letter, percent: route.feePercent },
    currency_in: route.from.spec.letter,
    currency_out: route.to.spec.letter,
    rate_type: route.rateType,
    snapshot: routeSnapshot(state, stored.createdAtMs),
    expires_at: isoTime(stored.expiresAtMs),
    created_at: isoTime(stored.createdAtMs),
  };
}
