// How long a quote and a route snapshot hold, read from the v3 contract (route capabilities,
// route snapshots and the quote book share it).
import { bundledDocument } from '../../../bundled-contracts.js';

/** How long a quote (and a route snapshot) holds: the default of route-capabilities-v1's quote_ttl_seconds. */
export const quoteTtlSeconds = readQuoteTtlSeconds();

function readQuoteTtlSeconds(): number {
  const schemas = (bundledDocument('exchange-v3').components as { schemas?: Record<string, { properties?: Record<string, { default?: unknown }> }> } | undefined)?.schemas;
  const ttl = schemas?.RouteCapabilities?.properties?.quote_ttl_seconds?.default;
  if (typeof ttl !== 'number') throw new Error('v3 contract: RouteCapabilities.quote_ttl_seconds has no default');
  return ttl;
}
