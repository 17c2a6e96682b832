// Judges one exchange the proxy forwarded against the contracts: which family and operation it
// is (the generated route tables, matched as the generated routers match), whether the request
// is valid (path, query, headers and JSON body through the generated validators, the body's
// media type, credentials of a security alternative present) and whether the answer conforms
// (conformance's response judge: documented status, content type, envelope, schema, headers).
// A path under no operation of either family is reported as unknown, with the methods it has
// when only the method is wrong.
import type { IncomingHttpHeaders } from 'node:http';
import { depositV1SecuritySchemes } from '../../generated/deposit-v1/contract-data.js';
import { exchangeV3SecuritySchemes } from '../../generated/exchange-v3/contract-data.js';
import { RouteMatcher, validateRequestParts, type OperationValidators, type RouteDefinition, type RouteMatch } from '../../generated/runtime/router-runtime.js';
import { families, type Family, type FamilyName } from '../../conformance/contract/families.js';
import { judgeResponse, problemsOf } from '../../conformance/judge/response.js';

export interface Violation {
  phase: 'request' | 'response';
  /** `unknown-path`, `method`, `security`, `body`, `query.per_page`, `schema`, `status`… */
  aspect: string;
  message: string;
}

/** A body as the proxy saw it: the bytes kept (at most the cap), and whether that is all of it. */
export interface CapturedBody {
  bytes: Buffer;
  complete: boolean;
  /** Why an incomplete body was not kept, when it is not the capture limit (`Content-Encoding zstd is not one the proxy decodes`). */
  unread?: string;
  /** An answer that is not what its Content-Encoding says (`the body is not valid gzip`): a violation, not a note. */
  encodingError?: string;
}

export interface ObservedExchange {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  requestHeaders: IncomingHttpHeaders;
  requestBody: CapturedBody;
  status: number;
  responseHeaders: IncomingHttpHeaders;
  /** The response body decoded from its Content-Encoding. */
  responseBody: CapturedBody;
}

export interface Judgement {
  family: FamilyName | undefined;
  operationId: string | undefined;
  violations: Violation[];
  /** What could not be judged and why (a body over the cap); not violations. */
  notes: string[];
}

interface SchemeLike {
  type: string;
  scheme?: string;
  in?: string;
  name?: string;
  'x-signature-scheme'?: { headers: Record<string, string> };
}

interface FamilyRoutes {
  family: Family;
  matcher: RouteMatcher;
  schemes: Readonly<Record<string, SchemeLike>>;
}

const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export class ContractCheck {
  private readonly v3: FamilyRoutes = { family: families.v3, matcher: new RouteMatcher(families.v3.routes), schemes: exchangeV3SecuritySchemes };
  private readonly v1: FamilyRoutes = { family: families.v1, matcher: new RouteMatcher(families.v1.routes), schemes: depositV1SecuritySchemes };

  judge(exchange: ObservedExchange): Judgement {
    const found = this.find(exchange.method, exchange.url);
    if ('unknown' in found) return { family: undefined, operationId: undefined, violations: [found.unknown], notes: [] };
    const { routes, match } = found;
    const violations = [...this.requestViolations(routes, match, exchange), ...responseViolations(routes.family, match.route, exchange)];
    if (exchange.responseBody.encodingError !== undefined) violations.push({ phase: 'response', aspect: 'content-encoding', message: exchange.responseBody.encodingError });
    const notes = [exchange.requestBody, exchange.responseBody].flatMap((body) => (body.complete || body.encodingError !== undefined ? [] : [`${notKept(body)}: its content was not judged`]));
    return { family: routes.family.name, operationId: match.route.operationId, violations, notes };
  }

  private find(method: string, url: string): { routes: FamilyRoutes; match: RouteMatch } | { unknown: Violation } {
    const candidates = this.candidates(url);
    for (const { routes, below } of candidates) {
      const match = safeMatch(routes.matcher, method, below);
      if (match !== undefined) return { routes, match };
    }
    const path = url.split('?')[0]!;
    for (const { routes, below } of candidates) {
      const allowed = methods.filter((other) => other !== method.toUpperCase() && safeMatch(routes.matcher, other, below) !== undefined);
      if (allowed.length > 0) {
        return { unknown: { phase: 'request', aspect: 'method', message: `${method} ${path} is no operation of ${routes.family.contract}; the path has ${allowed.join(', ')}` } };
      }
    }
    return { unknown: { phase: 'request', aspect: 'unknown-path', message: `${method} ${path} is no operation of ${families.v3.contract} or ${families.v1.contract}` } };
  }

  /** The families whose paths could hold `url`, with the URL below the family's base path. */
  private candidates(url: string): { routes: FamilyRoutes; below: string }[] {
    const result: { routes: FamilyRoutes; below: string }[] = [];
    for (const routes of [this.v3, this.v1]) {
      const base = routes.family.basePath.toLowerCase();
      if (base === '') result.push({ routes, below: url });
      else if (url.toLowerCase().startsWith(base) && ['/', '?', undefined].includes(url[base.length])) result.push({ routes, below: url.slice(base.length) || '/' });
    }
    return result;
  }

  private requestViolations(routes: FamilyRoutes, match: RouteMatch, exchange: ObservedExchange): Violation[] {
    const { route } = match;
    const violations: Violation[] = [];
    const security = securityProblem(routes.schemes, route, exchange.requestHeaders);
    if (security !== undefined) violations.push({ phase: 'request', aspect: 'security', message: security });

    let body: unknown;
    const bytes = exchange.requestBody.bytes;
    if (route.body !== undefined && isJson(route.body.contentType) && bytes.length > 0 && exchange.requestBody.complete) {
      const sent = exchange.requestHeaders['content-type'];
      if (sent !== undefined && !isJson(sent)) violations.push({ phase: 'request', aspect: 'content-type', message: `Content-Type ${sent}, the operation takes ${route.body.contentType}` });
      try {
        body = JSON.parse(bytes.toString('utf8'));
      } catch {
        violations.push({ phase: 'request', aspect: 'body', message: 'the body is not valid JSON' });
        return violations;
      }
    }
    const mark = exchange.url.indexOf('?');
    const validators = (routes.family.validators as unknown as Readonly<Record<string, OperationValidators>>)[route.operationId] ?? {};
    const parts = { params: match.params, rawQuery: mark === -1 ? '' : exchange.url.slice(mark + 1), headers: exchange.requestHeaders, body };
    // A body over the cap was not read: only the parameters are judged then.
    const judged = exchange.requestBody.complete ? validateRequestParts(route, validators, parts) : validateRequestParts({ ...route, body: undefined }, validators, parts);
    // The field is the violation's aspect, which its line shows: the message is what is wrong with it.
    for (const [field, messages] of Object.entries(judged)) violations.push({ phase: 'request', aspect: field, message: messages.join(', ') });
    return violations;
  }
}

/** Why a body was not kept whole, as a sentence's start (the proxy's notes say it). */
export function notKept(body: CapturedBody): string {
  return body.encodingError ?? body.unread ?? 'a body is larger than the capture limit';
}

function responseViolations(family: Family, route: RouteDefinition, exchange: ObservedExchange): Violation[] {
  const headers = new Headers();
  for (const [name, value] of Object.entries(exchange.responseHeaders)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const judgement = judgeResponse(family, route.operationId, {
    method: exchange.method,
    url: new URL(exchange.url, 'http://proxy.invalid'),
    requestHeaders: new Headers(),
    requestBody: undefined,
    status: exchange.status,
    headers,
    bodyText: exchange.responseBody.bytes.toString('utf8'),
  });
  // A HEAD answer has no body, and a body over the cap was not kept whole: judge neither.
  if (exchange.method.toUpperCase() === 'HEAD' || !exchange.responseBody.complete) {
    judgement.envelope = [];
    judgement.schema = [];
  }
  return problemsOf(judgement).map((problem) => {
    const colon = problem.indexOf(': ');
    return { phase: 'response', aspect: problem.slice(0, colon), message: problem.slice(colon + 2) };
  });
}

/**
 * Undefined when the request carries the credentials of one of the operation's security
 * alternatives (or the operation is public); else what is missing. Only presence is judged:
 * whether a token or signature is right is the server's to say.
 */
function securityProblem(schemes: Readonly<Record<string, SchemeLike>>, route: RouteDefinition, headers: IncomingHttpHeaders): string | undefined {
  if (route.security.length === 0 || route.security.some((alternative) => alternative.length === 0)) return undefined;
  const present = (scheme: SchemeLike | undefined): boolean => {
    if (scheme === undefined) return true;
    if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') return /^bearer\s+\S/i.test(String(headers.authorization ?? ''));
    if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name !== undefined && !headers[scheme.name.toLowerCase()]) return false;
    return Object.values(scheme['x-signature-scheme']?.headers ?? {}).every((name) => Boolean(headers[name.toLowerCase()]));
  };
  if (route.security.some((alternative) => alternative.every((name) => present(schemes[name])))) return undefined;
  return `no credentials for ${route.operationId}: it needs ${route.security.map((alternative) => alternative.map((name) => credentialOf(schemes[name], name)).join(' + ')).join(' or ')}`;
}

function credentialOf(scheme: SchemeLike | undefined, name: string): string {
  if (scheme?.type === 'http') return 'Authorization: Bearer';
  const headers = new Set([...(scheme?.name !== undefined ? [scheme.name] : []), ...Object.values(scheme?.['x-signature-scheme']?.headers ?? {})]);
  return headers.size > 0 ? [...headers].join(', ') : name;
}

function safeMatch(matcher: RouteMatcher, method: string, url: string): RouteMatch | undefined {
  try {
    return matcher.match(method, url);
  } catch {
    return undefined; // a path parameter that is not valid percent-encoding matches nothing
  }
}

function isJson(contentType: string): boolean {
  return /^application\/(?:[\w.-]+\+)?json$/i.test(contentType.split(';')[0]!.trim());
}
