// The one check of an order body, shared by preflight (which reports every check) and order
// creation (which throws the outcome's error or creates the order from its draft). The checks,
// in the contract's PreflightCheck names: route (exists, enabled), quote (the client's, not
// expired, agreeing with route_id/amount_side), snapshot (snapshot_hash still the route's),
// amount and limits (route-and-amount form), requisites, email, verification. A stale quote or
// snapshot fails as quote_expired (quote again); any other failure as validation_error (the
// caller renders the refusal with the outcome's details).
import type { CreateOrderRequest, MaskedOrderRequisites, OrderPreflight, OrderRequisites, PreflightCheck, Quote } from '../../../generated/exchange-v3/types.js';
import { fieldErrors } from '../../../generated/runtime/field-errors.js';
import { flatString } from '../../store/flat-string.js';
import { priceAmount } from './amount-check.js';
import type { RouteRecord } from './catalog/catalog-records.js';
import type { RequisiteField } from './catalog/requisite-fields.js';
import type { ExchangeCatalog } from './catalog/catalog-service.js';
import { snapshotHash, staleSnapshotMessage, type RouteState } from './catalog/route-state.js';
import type { PaymentDetails, PaymentDetailsSource } from './payment-details.js';
import type { Priced } from './catalog/pricing.js';
import type { QuoteBook } from './quotes.js';
import { requisiteErrors } from './requisite-checks.js';
import { verificationNeeds, type PassedVerifications } from './verification-needs.js';

export interface OrderDraft {
  routeId: number;
  quoteId: string | null;
  amountIn: string;
  amountOut: string;
  rate: string;
  /** In currencyOut, already deducted from amountOut. */
  fee: string;
  /** Rates-file codes. */
  currencyIn: string;
  currencyOut: string;
  paymentDetails: PaymentDetails;
  requisites: MaskedOrderRequisites;
  fromRequisite: string | null;
  toRequisite: string | null;
  email: string;
  clientOrderId: string | null;
  /** Verifications still needed (not yet approved for this client). */
  verificationRequired: { identity: boolean; card: boolean };
}

/** What an order body is checked against, and where its payment details come from. */
export interface OrderRequestSources {
  catalog: ExchangeCatalog;
  quotes: QuoteBook;
  paymentDetails: PaymentDetailsSource;
  verifications: PassedVerifications;
}

export interface OrderCheck {
  preflight: OrderPreflight;
  /** A refusal's details are keyed `body.<field>`, as an HttpError carries them. */
  outcome: { ok: true; draft: OrderDraft } | { ok: false; code: 'quote_expired' | 'validation_error'; message: string; details: Record<string, string[]> };
}

type CheckName = PreflightCheck['name'];

/** The order of the checks in `preflight.checks`. */
const checkOrder: CheckName[] = ['route', 'quote', 'snapshot', 'amount', 'limits', 'requisites', 'email', 'verification'];

/** Mail to these reserved top-level domains (RFC 2606, RFC 6761) can never be delivered. */
const undeliverableDomain = /\.(invalid|localhost)$/i;

interface Inspection {
  preflight: OrderPreflight;
  /** The failures by `body.<field>`, as an HttpError carries them (preflight.errors names the fields alone). */
  errors: Record<string, string[]>;
  /** A stale quote or snapshot: the order fails as quote_expired. */
  stale: boolean;
  route: RouteRecord | null;
  quote: Quote | null;
  priced: { priced: Priced; rate: string } | null;
}

/** Every check of the body, without creating anything (preflight answers only this). */
export function inspectOrderRequest(sources: OrderRequestSources, clientId: string, body: CreateOrderRequest): Inspection {
  const { catalog, quotes: book } = sources;
  const failures = new Map<CheckName, string>();
  const errors: Record<string, string[]> = {};
  let stale = false;
  const fail = (check: CheckName, field: string | null, message: string) => {
    if (!failures.has(check)) failures.set(check, field === null ? message : `${field.replace('body.', '')} ${message}`);
    if (field !== null) (errors[field] ??= []).push(message);
  };

  // quote
  let quote: Quote | null = null;
  if (body.quote_id !== undefined) {
    const record = book.find(clientId, body.quote_id);
    if (record === undefined) {
      fail('quote', 'body.quote_id', 'is not a quote of this client');
    } else {
      quote = record.quote;
      if (book.isExpired(record)) {
        stale = true;
        fail('quote', 'body.quote_id', `expired at ${quote.expires_at}; request a new quote`);
      }
      if (body.route_id !== undefined && body.route_id !== quote.route_id) fail('quote', 'body.route_id', `does not match the quote's route ${quote.route_id}`);
      if (body.amount_side !== undefined && body.amount_side !== quote.amount_side) fail('quote', 'body.amount_side', `does not match the quote's side ${quote.amount_side}`);
    }
  }

  // route
  const routeId = quote?.route_id ?? body.route_id;
  const route = routeId === undefined ? null : (catalog.route(routeId) ?? null);
  if (routeId !== undefined && route === null) fail('route', 'body.route_id', 'is not a route');
  const state: RouteState | null = route === null ? null : catalog.state(route);
  // A route that went down after the quote is the quote's problem when the body names no route.
  const routeField = body.route_id !== undefined ? 'body.route_id' : 'body.quote_id';
  if (state !== null && !state.enabled) fail('route', routeField, `names a suspended route: ${state.disabledReason}`);
  if (route === null && routeId === undefined) fail('route', null, 'no route: the quote is unknown');

  // snapshot
  if (body.snapshot_hash !== undefined && state !== null && body.snapshot_hash !== snapshotHash(state)) {
    stale = true;
    fail('snapshot', 'body.snapshot_hash', staleSnapshotMessage);
  }

  // amount and limits (the quote form was priced and checked when quoted)
  let priced: Inspection['priced'] = null;
  if (quote !== null) {
    priced = { priced: { amountIn: quote.amount_in, amountOut: quote.amount_out, fee: quote.fee.amount }, rate: quote.rate };
  } else if (state !== null && body.amount !== undefined) {
    const outcome = priceAmount(state, body.amount, body.amount_side ?? 'give');
    if (outcome.ok) priced = { priced: outcome.priced, rate: state.course };
    else fail(outcome.check, 'body.amount', outcome.message);
  }

  // requisites
  if (route !== null) {
    for (const [field, messages] of Object.entries(requisiteErrors(route, body.requisites))) {
      for (const message of messages) fail('requisites', field, message);
    }
  }

  // email
  if (undeliverableDomain.test(body.email)) fail('email', 'body.email', 'is on a reserved domain that receives no mail');

  // verification: never blocks creation (the order machine holds the payout until it is passed)
  const needed = route === null ? { identity: false, card: false } : stillNeeded(sources.verifications, clientId, route, priced?.priced.amountIn ?? null, body.requisites);

  const checks: PreflightCheck[] = checkOrder.map((name) => ({ name, passed: !failures.has(name), message: failures.get(name) ?? null }));
  return {
    preflight: { ok: failures.size === 0, checks, errors: fieldErrors(errors).details, quote, verification_required: needed },
    errors,
    stale,
    route,
    quote,
    priced,
  };
}

/** The verifications the route and amount need that the client has not passed yet. */
function stillNeeded(passed: PassedVerifications, clientId: string, route: RouteRecord, giveAmount: string | null, requisites: OrderRequisites) {
  const needs = verificationNeeds(route, giveAmount);
  return {
    identity: needs.identity && !passed.hasApproved(clientId, 'identity'),
    card: needs.card && !passed.hasApproved(clientId, 'card', requisites.from_card_number),
  };
}

export function checkOrderRequest(sources: OrderRequestSources, clientId: string, body: CreateOrderRequest): OrderCheck {
  const inspection = inspectOrderRequest(sources, clientId, body);
  const { preflight, route, priced } = inspection;
  if (!preflight.ok || route === null || priced === null) {
    const refusal = inspection.stale
      ? ({ code: 'quote_expired', message: 'The quote or route snapshot is no longer valid; request a new quote.' } as const)
      : ({ code: 'validation_error', message: 'The given data was invalid.' } as const);
    return { preflight, outcome: { ok: false, ...refusal, details: inspection.errors } };
  }
  const requisites = maskRequisites(body.requisites);
  const draft: OrderDraft = {
    routeId: route.id,
    quoteId: inspection.quote?.id ?? null,
    amountIn: priced.priced.amountIn,
    amountOut: priced.priced.amountOut,
    rate: priced.rate,
    fee: priced.priced.fee,
    currencyIn: route.from.spec.letter,
    currencyOut: route.to.spec.letter,
    paymentDetails: sources.paymentDetails.forRoute(route, priced.priced.amountIn),
    requisites,
    fromRequisite: shownRequisite(requisites, 'from'),
    toRequisite: shownRequisite(requisites, 'to'),
    email: body.email,
    clientOrderId: body.client_order_id ?? null,
    verificationRequired: preflight.verification_required,
  };
  return { preflight, outcome: { ok: true, draft } };
}

/** The requisites an order keeps masked: card numbers keep their first six and last four digits (PCI DSS). */
export const maskedRequisiteFields: readonly ('to_card_number' | 'from_card_number')[] = ['to_card_number', 'from_card_number'];

export type RequisiteSide = 'from' | 'to';

/** Each side's requisite fields, the first one given being the side's from_requisite / to_requisite. */
const sideFields: Record<RequisiteSide, readonly RequisiteField[]> = {
  from: ['from_card_number', 'from_account'],
  to: ['to_card_number', 'to_address', 'to_account'],
};

/** The side's requisite in `requisites` (as sent, or as kept); undefined when it has none (a null field is none). */
export function sideRequisite(requisites: OrderRequisites | MaskedOrderRequisites, side: RequisiteSide): { field: RequisiteField; value: string } | undefined {
  const field = sideFields[side].find((f) => typeof requisites[f] === 'string');
  return field === undefined ? undefined : { field, value: requisites[field]! };
}

export function isMaskedRequisite(field: RequisiteField): boolean {
  return (maskedRequisiteFields as readonly RequisiteField[]).includes(field);
}

/** The side's requisite as the order shows it: a card number masked already, an address or account by its ends. */
function shownRequisite(requisites: MaskedOrderRequisites, side: RequisiteSide): string | null {
  const requisite = sideRequisite(requisites, side);
  if (requisite === undefined) return null;
  return isMaskedRequisite(requisite.field) ? requisite.value : maskMiddle(requisite.value);
}

/** The requisites with card numbers masked; the rest is returned as sent. */
function maskRequisites(requisites: OrderRequisites): MaskedOrderRequisites {
  const masked: MaskedOrderRequisites = { ...requisites };
  for (const field of maskedRequisiteFields) {
    const value = requisites[field];
    if (value !== undefined) masked[field] = maskCard(value);
  }
  return masked;
}

// Both masks are kept by the order for its whole life: flat, not the tree of pieces a template makes.
function maskCard(number: string): string {
  return flatString(`${number.slice(0, 6)}${'*'.repeat(number.length - 10)}${number.slice(-4)}`);
}

/** An address or account shown with its ends only (`TQn9Y2****KcbLSE`). */
function maskMiddle(text: string): string {
  const keep = text.length >= 16 ? 6 : Math.floor(text.length / 4);
  return keep === 0 ? '****' : flatString(`${text.slice(0, keep)}****${text.slice(-keep)}`);
}
