// Quotes: an amount priced on a route at its current state, held for the quote TTL so an
// order may cite it (order-request.ts). Kept per client; expired quotes are kept a while so
// citing one answers quote_expired rather than "unknown".
import type { AmountSide, Quote } from '../../../generated/exchange-v3/types.js';
import type { Clock } from '../../clock.js';
import type { Random } from '../../random.js';
import { randomUuid } from '../webhooks/ids.js';
import { quoteTtlSeconds } from './catalog/route-capabilities.js';
import { routeSnapshot, type RouteState } from './catalog/route-state.js';
import { perSandbox } from './per-sandbox.js';
import type { Priced } from './pricing.js';

export interface QuoteRecord {
  clientId: string;
  quote: Quote;
  expiresAtMs: number;
}

/** How long an expired quote is still recognised (then it is forgotten). */
const keepExpiredMs = 24 * 3600 * 1000;
/** At most this many quotes are kept; the oldest go first. */
const maxQuotes = 100_000;

export class QuoteBook {
  // Insertion order is expiry order (one TTL), so forgetting starts at the front.
  private readonly quotes = new Map<string, QuoteRecord>();

  constructor(
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}

  create(clientId: string, state: RouteState, side: AmountSide, priced: Priced): Quote {
    this.forgetOld();
    const now = this.clock.now();
    const expiresAtMs = now.getTime() + quoteTtlSeconds * 1000;
    const { route } = state;
    const quote: Quote = {
      id: randomUuid(this.random),
      route_id: route.id,
      amount_side: side,
      amount_in: priced.amountIn,
      amount_out: priced.amountOut,
      rate: state.course,
      fee: { amount: priced.fee, currency: route.to.spec.letter, percent: route.feePercent },
      currency_in: route.from.spec.letter,
      currency_out: route.to.spec.letter,
      rate_type: route.rateType,
      snapshot: routeSnapshot(state, now),
      expires_at: new Date(expiresAtMs).toISOString(),
      created_at: now.toISOString(),
    };
    this.quotes.set(quote.id, { clientId, quote, expiresAtMs });
    return quote;
  }

  /** The client's quote with this id, expired or not; another client's is not found. */
  find(clientId: string, id: string): QuoteRecord | undefined {
    const record = this.quotes.get(id);
    return record?.clientId === clientId ? record : undefined;
  }

  isExpired(record: QuoteRecord): boolean {
    return record.expiresAtMs <= this.clock.nowMs();
  }

  private forgetOld(): void {
    const horizon = this.clock.nowMs() - keepExpiredMs;
    for (const [id, record] of this.quotes) {
      if (record.expiresAtMs > horizon && this.quotes.size < maxQuotes) break;
      this.quotes.delete(id);
    }
  }
}

export const quoteBook = perSandbox(0x0a07e5, (sandbox, random) => new QuoteBook(sandbox.clock, random));
