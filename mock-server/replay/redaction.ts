// What must never leave a recorded exchange or a log line: credentials and secrets. Header names
// come from the three contracts (their security schemes, the HMAC signature headers, the webhook
// signature header) plus the generic ones (cookies, proxy credentials); JSON fields are the ones
// the contracts use for secrets (token, secret, api_key, api_secret, hmac_secret, webhook_secret…)
// in any case or spelling. Besides replacing those, every value seen in such a place is scrubbed
// from any other text of the same exchange (a token echoed in a query string or an error message).
// Query parameters named like those fields are secrets too (`?token=…`), in log lines and fixtures alike.
import { depositV1Info, depositV1SecuritySchemes } from '../../generated/deposit-v1/contract-data.js';
import { exchangeV3Info, exchangeV3SecuritySchemes } from '../../generated/exchange-v3/contract-data.js';
import { sandboxControlSecuritySchemes } from '../../generated/sandbox-control/contract-data.js';

export const redacted = '[REDACTED]';

interface SchemeLike {
  type: string;
  in?: string;
  name?: string;
  'x-signature-scheme'?: { headers: Record<string, string> };
}

/** Header names (lower case) whose values are credentials or signatures. */
export const sensitiveHeaders: ReadonlySet<string> = new Set(
  [
    'authorization',
    'proxy-authorization',
    'cookie',
    'set-cookie',
    exchangeV3Info['x-webhook-signature'].signature_header,
    depositV1Info['x-webhook-signature'].signature_header,
    ...[exchangeV3SecuritySchemes, depositV1SecuritySchemes, sandboxControlSecuritySchemes].flatMap((schemes) =>
      Object.values(schemes as Record<string, SchemeLike>).flatMap(schemeHeaders),
    ),
  ].map((name) => name.toLowerCase()),
);

/** The headers a scheme carries a credential in: an API key header, an HMAC key and signature. */
function schemeHeaders(scheme: SchemeLike): string[] {
  const names: string[] = [];
  if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name !== undefined) names.push(scheme.name);
  const signing = scheme['x-signature-scheme']?.headers;
  if (signing?.key !== undefined) names.push(signing.key);
  if (signing?.signature !== undefined) names.push(signing.signature);
  return names;
}

/** JSON field names, lower-cased without `_` and `-`, whose string values are secrets. */
const sensitiveFields = new Set(['token', 'apitoken', 'accesstoken', 'refreshtoken', 'secret', 'apikey', 'apisecret', 'hmacsecret', 'webhooksecret', 'clientsecret', 'password', 'signature']);

export function isSensitiveField(name: string): boolean {
  return sensitiveFields.has(name.toLowerCase().replace(/[_-]/g, ''));
}

/** Values shorter than this are not scrubbed from other text: a "1" would blank every digit. */
const minScrubbedLength = 6;

/** The secrets of one exchange, gathered from its headers and bodies, scrubbed from any text of it. */
export class SecretScrubber {
  private readonly values = new Set<string>();

  /** Remembers the values of sensitive headers (and a Bearer token without its scheme). */
  collectHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): this {
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined || !sensitiveHeaders.has(name.toLowerCase())) continue;
      for (const one of Array.isArray(value) ? value : [value]) {
        this.remember(one);
        const credential = /^\s*\S+\s+(\S+)\s*$/.exec(one)?.[1]; // `Bearer <token>`, `Basic <…>`
        if (credential !== undefined) this.remember(credential);
      }
    }
    return this;
  }

  /** Remembers the string values of sensitive fields anywhere in a JSON value. */
  collectJson(value: unknown): this {
    walk(value, (key, item) => {
      if (typeof item === 'string' && isSensitiveField(key)) this.remember(item);
    });
    return this;
  }

  /** Remembers the values of sensitive query parameters of a path and query, as sent and decoded. */
  collectQuery(url: string): this {
    const mark = url.indexOf('?');
    if (mark === -1) return this;
    for (const { pair, name, equals } of queryPairs(url.slice(mark + 1))) {
      if (equals === -1 || !isSensitiveField(name)) continue;
      this.remember(pair.slice(equals + 1));
      this.remember(decodeQueryPart(pair.slice(equals + 1)));
    }
    return this;
  }

  /** The text with every remembered secret replaced. */
  scrub(text: string): string {
    let result = text;
    // Longest first: a token that contains another secret is replaced whole.
    for (const secret of [...this.values].sort((a, b) => b.length - a.length)) result = result.split(secret).join(redacted);
    return result;
  }

  private remember(value: string): void {
    if (value.length >= minScrubbedLength) this.values.add(value);
  }
}

/** The headers with sensitive values replaced (names and order kept). */
export function redactHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = sensitiveHeaders.has(name.toLowerCase()) ? (Array.isArray(value) ? value.map(() => redacted) : redacted) : value;
  }
  return out;
}

/** A copy of a JSON value with the string values of sensitive fields replaced. */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, typeof item === 'string' && isSensitiveField(key) ? redacted : redactJson(item)]),
  );
}

function walk(value: unknown, visit: (key: string, item: unknown) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      visit(key, item);
      walk(item, visit);
    }
  }
}

/** A path and query with the values of sensitive query parameters (`?token=…`) replaced. */
export function redactQuery(url: string): string {
  const mark = url.indexOf('?');
  return mark === -1 ? url : `${url.slice(0, mark)}?${redactQueryString(url.slice(mark + 1))}`;
}

/** A query string (without `?`) with the values of sensitive parameters replaced. */
export function redactQueryString(query: string): string {
  return queryPairs(query)
    .map(({ pair, name, equals }) => (equals !== -1 && isSensitiveField(name) ? `${pair.slice(0, equals)}=${encodeURIComponent(redacted)}` : pair))
    .join('&');
}

/** Each `name=value` of a query string as written, with its decoded name and the place of its `=`. */
function queryPairs(query: string): { pair: string; name: string; equals: number }[] {
  return query.split('&').map((pair) => {
    const equals = pair.indexOf('=');
    return { pair, name: decodeQueryPart(equals === -1 ? pair : pair.slice(0, equals)), equals };
  });
}

function decodeQueryPart(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A copy of a JSON-like value with `replace` applied to every string in it. */
export function mapStrings<T>(value: T, replace: (text: string) => string): T {
  if (typeof value === 'string') return replace(value) as T;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, replace)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, mapStrings(item, replace)])) as T;
}
