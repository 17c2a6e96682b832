// The exchange part of a sandbox snapshot: export and restore of its services' records.
import type { SandboxStateExchange } from '../../generated/sandbox-control/types.js';
import type { StateReferences } from '../domain/state-rejected.js';
import type { SandboxServices } from '../services.js';

/** `withRecords` false: every list of records left empty (a journal's header, journal-rows.ts). */
export function exportExchangeState(services: SandboxServices, withRecords = true): SandboxStateExchange {
  return {
    catalog: services.catalog.exportState(),
    quotes: services.quotes.exportState(withRecords),
    paymentDetails: services.paymentDetails.exportState(),
    orders: services.orders.exportState(withRecords),
    reviews: services.reviews.exportState(withRecords),
    partners: services.partners.exportState(withRecords),
  };
}

/**
 * Replaces the records of freshly built services with the snapshot's; throws StateRejected.
 * Orders refer to the chain's transactions, so the deposits part is restored first. Nothing here
 * brings a record up to date: the sandbox's clock is the document's only once the load succeeded.
 */
export function restoreExchangeState(services: SandboxServices, state: SandboxStateExchange, references: StateReferences): void {
  const { catalog, orders } = services;
  // Records keep a client's id as text; the document's pattern makes it a positive integer.
  const clientOf = (clientId: string, pointer: string) => references.client(Number(clientId), pointer);
  catalog.restoreState(state.catalog, '/exchange/catalog');
  services.quotes.restoreState(state.quotes, catalog, clientOf, '/exchange/quotes');
  services.paymentDetails.restoreState(state.paymentDetails, (id) => catalog.paymentSystems.get(id)?.spec.kind === 'card', '/exchange/paymentDetails');
  orders.restoreState(
    state.orders,
    { requireClient: clientOf, isRoute: (id) => catalog.route(id) !== undefined, isTransaction: (hash) => services.deposits.chain.has(hash) },
    '/exchange/orders',
  );
  services.reviews.restoreState(state.reviews, clientOf, (publicId) => orders.clientOf(publicId), '/exchange/reviews');
  services.partners.restoreState(state.partners, clientOf, '/exchange/partners');
}
