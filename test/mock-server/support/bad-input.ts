// fast-check arbitraries of bad requests for one route: wrong types and hostile strings in
// path, query and header values, random and malformed JSON bodies, bodies of the operation's
// schema with one mutation (schema-bodies.ts), prototype keys, huge strings, unicode and wrong
// content types; and how the suites send them and judge the answers.
import fc from 'fast-check';
import { expect } from 'vitest';
import { createHmacSigner, depositV1SignatureScheme } from '../../../generated/deposit-v1/client.js';
import type { RouteDefinition } from '../../../generated/runtime/router-runtime.js';
import { fillPath, validPathValues } from './paths.js';
import { expectContractBody, expectFamilyResponse, families, type FamilyName } from './contract.js';
import { bearer, send, type RawResponse } from './http.js';
import { schemaBodies } from './schema-bodies.js';
import type { TestServer } from './server.js';

export interface BadRequest {
  method: string;
  /** Path and query, as sent (already encoded). */
  target: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** Shown when a run fails. */
  describe: string;
}

const hostile = fc.constantFrom(
  '', ' ', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '-1', '0', '1.5', '1e309', 'NaN', 'Infinity',
  'true', 'null', 'undefined', '[]', '{}', '[object Object]', '../../etc/passwd', '😀', 'Ω≈ç√', '\u0000', '\u202e', 'ﬀ', "' OR 1=1 --",
  '<script>', '%00', '9'.repeat(400), '-9007199254740993',
);

/** Strings for query and path values (sent percent-encoded). */
export const weirdText: fc.Arbitrary<string> = fc.oneof(
  hostile,
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer().map(String),
  fc.double().map(String),
);

// Node refuses a request line plus headers over 16 KB before any route runs (431
// request_header_fields_too_large, client-error.ts), so a request carries at most one huge string outside its body.
const huge = 'x'.repeat(10_000);
const hugeSlot = fc.constantFrom('none', 'none', 'path', 'query', 'header');

// Header values travel as Latin-1 without control characters.
const weirdHeader: fc.Arbitrary<string> = fc
  .oneof(hostile, fc.string({ maxLength: 40 }), fc.integer().map(String))
  .map((value) => value.replace(/[^\x20-\x7e]/g, '?'));

const protoBodies = fc.constantFrom(
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"seed":1,"__proto__":{"seed":2,"polluted":true}}',
  '{"scopes":["__proto__"],"__proto__":[]}',
  '[{"__proto__":{"polluted":true}}]',
);

const malformed = fc.constantFrom(
  '{', '{"a":', 'nul', '\u0000', '[1,2', '{"a":1}}', '\ufeff{}', "{'a':1}", '{"a":"\\ud800"}', 'NaN', '01', '{"a":1,}', '"', '{"a" 1}', ' ',
);

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return 'null';
  }
}

export const weirdBody: fc.Arbitrary<string> = fc.oneof(
  fc.json(),
  fc.anything({ maxDepth: 3 }).map(safeJson),
  protoBodies,
  fc.dictionary(fc.oneof(hostile, fc.string({ maxLength: 12 })), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 })
    .map((extra) => JSON.stringify({ ...extra, unknown_field_xyz: extra })),
  fc.constant(JSON.stringify({ name: 'x'.repeat(10_000), token: 't'.repeat(10_000), seconds: 'x'.repeat(10_000), amount: '9'.repeat(10_000) })),
  fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 20 }), fc.constant('😀')), { maxLength: 5 }).map((parts) => JSON.stringify({ name: parts.join('') })),
  malformed,
  fc.string({ unit: 'binary', maxLength: 200 }),
);

const contentTypes = fc.constantFrom<string | undefined>(
  'application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded',
  'application/merge-patch+json', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/json; charset=utf-16',
  'application/xml', undefined,
);

/** Bad requests for `route`; `withBody` false sends no body (GET requests cannot carry one). */
export function badRequests(family: FamilyName, route: RouteDefinition): fc.Arbitrary<BadRequest> {
  const valid = validPathValues(family, route);
  const pathParams = route.parameters.filter((p) => p.in === 'path');
  const queryNames = route.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const headerNames = route.parameters.filter((p) => p.in === 'header').map((p) => p.name);

  const path = fc.record(
    // Not empty, `.` or `..`: `/schemas/` and `/schemas/..` are other routes' URLs (express
    // ignores a trailing slash; URLs resolve dot segments).
    Object.fromEntries(pathParams.map((p) => [p.name, fc.oneof({ weight: 1, arbitrary: fc.constant(valid[p.name] ?? '1') }, { weight: 3, arbitrary: weirdText.filter((v) => !['', '.', '..'].includes(v)) })])),
  ) as fc.Arbitrary<Record<string, string>>;
  // Malformed percent-encoding is sent raw, the rest encoded.
  const rawSegment = fc.option(fc.constantFrom('%', '%E0%A4%A', '%ZZ', '%C0%AF', '%FF%FE', '%F0%9F%98'), { nil: undefined, freq: 5 });
  const queryName = fc.oneof(
    ...(queryNames.length > 0 ? [fc.constantFrom(...queryNames)] : []),
    fc.constantFrom('__proto__', 'constructor', 'unknown_field', 'filter[__proto__]', 'sort[]', 'page[0]', 'filter'),
  );
  const query = fc.array(fc.tuple(queryName, weirdText), { maxLength: 5 });
  const rawQuery = fc.option(fc.constantFrom('%', 'a=%ZZ', '&&==&', 'page=1&page=2', 'per_page=0', 'per_page=101', 'page=-1', 'cursor=%00'), { nil: undefined, freq: 4 });
  const headers = fc.record(Object.fromEntries(headerNames.map((name) => [name, weirdHeader])), { requiredKeys: [] }) as fc.Arbitrary<Record<string, string>>;
  const canHaveBody = route.method !== 'get' && route.method !== 'head';
  const fromSchema = schemaBodies(family, route);
  const anyBody = fromSchema === undefined ? weirdBody : fc.oneof(weirdBody, fromSchema);
  const body = canHaveBody ? fc.option(anyBody, { nil: undefined, freq: 6 }) : fc.constant(undefined);

  return fc.record({ path, rawSegment, query, rawQuery, headers, body, contentType: contentTypes, hugeAt: hugeSlot }).map((input) => {
    const pathValues = { ...input.path };
    const firstHeader = headerNames[0];
    if (input.hugeAt === 'path' && pathParams[0] !== undefined) pathValues[pathParams[0].name] = huge;
    if (input.hugeAt === 'query') input.query.push([queryNames[0] ?? 'unknown_field', huge]);
    if (input.hugeAt === 'header' && firstHeader !== undefined) input.headers[firstHeader] = huge;
    const first = pathParams[0];
    const encode = input.rawSegment === undefined || first === undefined
      ? encodeURIComponent
      : (value: string) => (value === pathValues[first.name] ? input.rawSegment! : encodeURIComponent(value));
    const pathText = fillPath(family, route, pathValues, encode);
    const search = new URLSearchParams(input.query).toString();
    const queryText = [search, input.rawQuery].filter((part) => part !== undefined && part !== '').join('&');
    const target = queryText === '' ? pathText : `${pathText}?${queryText}`;
    const headerValues: Record<string, string> = { ...input.headers };
    if (input.body !== undefined && input.contentType !== undefined) headerValues['Content-Type'] = input.contentType;
    const describe = `${route.method.toUpperCase()} ${target.slice(0, 300)} headers=${JSON.stringify(headerValues).slice(0, 300)} body=${JSON.stringify(input.body?.slice(0, 300))}`;
    // fast-check prints counterexamples with this, not with the 10 000-character strings.
    return { method: route.method.toUpperCase(), target, headers: headerValues, body: input.body, describe, [fc.toStringMethod]: () => describe };
  });
}

/** Sends a bad request as the family's default caller: the default token (v3), signed or unsigned with the default site (v1). */
export async function sendAs(server: TestServer, family: FamilyName, request: BadRequest, signV1: boolean): Promise<RawResponse> {
  const headers = new Headers(request.headers);
  if (family === 'v3') for (const [name, value] of Object.entries(bearer(server.token))) headers.set(name, value);
  if (family === 'v1' && signV1) {
    const signer = createHmacSigner(depositV1SignatureScheme, { key: server.site.apiKey, secret: server.site.apiSecret }, { now: () => server.sandbox.clock.nowMs() });
    await signer({ method: request.method, url: new URL(server.url + request.target), headers, body: request.body });
  }
  return send(server.url, request.target, {
    method: request.method,
    headers: Object.fromEntries(headers),
    ...(request.body === undefined ? {} : { body: request.body }),
  });
}

/**
 * No 5xx; a JSON body in the family's format with a code of its
 * catalog (or a 2xx matching the contract), except v3's two non-JSON documents and 204s.
 */
export function checkAnswer(family: FamilyName, route: RouteDefinition, request: BadRequest, response: RawResponse): void {
  const what = `${route.operationId}: ${request.describe}`;
  expect(response.status < 500, `${what} → ${response.status} ${response.text.slice(0, 400)}`).toBe(true);
  // Every answer of these operations is JSON in the family's format, except the two
  // non-JSON documents of v3 and the control API's event stream on success.
  const nonJsonSuccess = response.status === 200 && /^(application\/yaml|application\/xml|text\/event-stream)/.test(response.contentType);
  if (nonJsonSuccess) return;
  // A 204 (the control API's webhook inbox) carries no body at all.
  if (response.status === 204) {
    expect(response.text, what).toBe('');
    return;
  }
  expectFamilyResponse(family, response, what);
  expectContractBody(family, route.operationId, response.status, response.json);
}
