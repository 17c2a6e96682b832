// Validation details as an answer carries them. Inside a server, a problem is keyed by where it
// was found and the field's name: `query.per_page`, `path.order`, `headers.idempotency-key`,
// `body.requisites.to_address` (what the routers' validation produces). An answer's
// `error.details` is keyed by the field name alone, as the API description says
// (`per_page`, `requisites.to_address`), and `error.locations` says where each was sent.

/** Where a request field was sent (OpenAPI's `in`, plus the body). */
export type FieldLocation = 'path' | 'query' | 'header' | 'body';

export interface FieldErrors {
  /** Field name (dot path inside the body) → messages. */
  details: Record<string, string[]>;
  /** Field name → where it was sent; only for fields of the request. */
  locations: Record<string, FieldLocation>;
}

const prefixes: Record<string, FieldLocation> = { path: 'path', query: 'query', headers: 'header', body: 'body' };

/**
 * Splits `location.field` keys. A key without a location (`scope`, `status`: context, not a field
 * of the request) is kept as it is; the body itself (`body`, when it is missing) is the field
 * `body`. Two locations naming the same field share its messages and the first location.
 */
export function fieldErrors(qualified: Readonly<Record<string, readonly string[]>>): FieldErrors {
  // Maps, not object keys: a field may be named `__proto__` (an unknown body property).
  const details = new Map<string, string[]>();
  const locations = new Map<string, FieldLocation>();
  for (const [key, messages] of Object.entries(qualified)) {
    const dot = key.indexOf('.');
    const head = dot < 0 ? key : key.slice(0, dot);
    const location = Object.hasOwn(prefixes, head) ? prefixes[head] : undefined;
    const field = location === undefined || dot < 0 ? key : key.slice(dot + 1);
    const known = details.get(field) ?? [];
    details.set(field, [...known, ...messages.filter((message) => !known.includes(message))]);
    if (location !== undefined && !locations.has(field)) locations.set(field, location);
  }
  return { details: Object.fromEntries(details), locations: Object.fromEntries(locations) };
}
