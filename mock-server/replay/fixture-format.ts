// The fixture format `proxy --record DIR` writes and `serve --replay DIR` reads: one JSON file per
// exchange, named `<sequence>-<method>-<operation>.json` so a directory lists in recording order.
// Version 1 (the `version` field); a reader refuses other formats and versions by name, so a
// fixture written by a newer kit is never half-understood. Bodies are kept as `json` (a parsed
// JSON value, easy to read and edit), `text` (other UTF-8 text) or `base64` (anything else).
// Secrets are redacted before a fixture is written (redaction.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { join } from 'node:path';

export const fixtureFormat = 'exchange-api-kit.exchange';
export const fixtureVersion = 1;

export type FixtureBody = { json: unknown } | { text: string } | { base64: string };

export type FixtureHeaders = Record<string, string | string[]>;

export interface ExchangeFixture {
  format: typeof fixtureFormat;
  version: typeof fixtureVersion;
  recordedAt: string;
  /** The operation the proxy matched (`createOrder`), or null for a path of no contract. */
  operationId: string | null;
  request: {
    method: string;
    /** The path as sent, without the query. */
    path: string;
    /** The query string as sent, without `?`; empty when none. */
    query: string;
    headers: FixtureHeaders;
    body: FixtureBody | null;
  };
  response: {
    status: number;
    headers: FixtureHeaders;
    body: FixtureBody | null;
  };
}

/** A fixture read from disk, with the file it came from (replayed answers name it). */
export interface LoadedFixture {
  file: string;
  fixture: ExchangeFixture;
}

export class FixtureError extends Error {}

/** Every `*.json` fixture of `dir`, in file-name order; throws FixtureError naming a bad file. */
export function readFixtures(dir: string): LoadedFixture[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
  } catch (error) {
    throw new FixtureError(`cannot read the fixture directory ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return names.map((file) => ({ file, fixture: parseFixture(readFileSync(join(dir, file), 'utf8'), file) }));
}

export function parseFixture(text: string, file: string): ExchangeFixture {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new FixtureError(`${file}: not JSON (${(error as Error).message})`);
  }
  const problem = fixtureProblem(value);
  if (problem !== undefined) throw new FixtureError(`${file}: ${problem}`);
  return value as ExchangeFixture;
}

function fixtureProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'not a JSON object';
  if (value.format !== fixtureFormat) return `format ${JSON.stringify(value.format)} is not ${fixtureFormat}`;
  if (value.version !== fixtureVersion) return `version ${JSON.stringify(value.version)} is not supported (this kit reads version ${fixtureVersion})`;
  const { request, response } = value;
  if (!isRecord(request) || typeof request.method !== 'string' || typeof request.path !== 'string' || typeof request.query !== 'string') {
    return 'request needs method, path and query strings';
  }
  // 1xx are interim answers: no server ends an exchange with one, and the mock cannot send one as its answer.
  if (!isRecord(response) || !Number.isInteger(response.status) || (response.status as number) < 200 || (response.status as number) > 599) {
    return 'response needs an HTTP status from 200 to 599';
  }
  for (const [where, part] of [['request', request], ['response', response]] as const) {
    if (!isHeaders(part.headers)) return `${where}.headers must map names to strings or lists of strings`;
    const unsendable = unsendableHeader(part.headers as FixtureHeaders);
    if (unsendable !== undefined) return `${where}.headers: ${unsendable}`;
    if (part.body !== null && !isBody(part.body)) return `${where}.body must be null or one of {json}, {text}, {base64}`;
  }
  // These statuses end their answer at the head (RFC 9110): a body recorded beside one could not be sent.
  const status = response.status as number;
  if (bodilessStatuses.has(status) && response.body !== null && bodyBytes(response.body as FixtureBody).length > 0) return `response: a ${status} answer has no body`;
  return undefined;
}

const bodilessStatuses = new Set([204, 205, 304]);

function isHeaders(value: unknown): boolean {
  return isRecord(value) && Object.values(value).every((item) => typeof item === 'string' || (Array.isArray(item) && item.every((one) => typeof one === 'string')));
}

/**
 * Why a header could not go on the wire (a name that is no HTTP token, a value with a line break
 * or a control character), or undefined. Checked here so a hand-edited fixture is refused at
 * start-up by name instead of failing the request it would answer.
 */
function unsendableHeader(headers: FixtureHeaders): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    try {
      validateHeaderName(name);
    } catch {
      return `${JSON.stringify(name)} is not a valid header name`;
    }
    for (const one of Array.isArray(value) ? value : [value]) {
      try {
        validateHeaderValue(name, one);
      } catch {
        return `the value of ${name} has characters a header cannot carry`;
      }
    }
  }
  return undefined;
}

function isBody(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1) return false;
  return 'json' in value || (keys[0] === 'text' && typeof value.text === 'string') || (keys[0] === 'base64' && isBase64(value.base64));
}

/** Base64 as RFC 4648 writes it: node would decode anything, dropping what it cannot read. */
function isBase64(value: unknown): boolean {
  return typeof value === 'string' && value.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(value);
}

/** The bytes a fixture body stands for (JSON is written compactly). */
export function bodyBytes(body: FixtureBody): Buffer {
  if ('json' in body) return Buffer.from(JSON.stringify(body.json));
  if ('text' in body) return Buffer.from(body.text, 'utf8');
  return Buffer.from(body.base64, 'base64');
}

/** The fixture body of some bytes: parsed JSON when the media type is JSON and it parses, text when it is UTF-8 text. */
export function fixtureBody(bytes: Buffer, contentType: string | undefined): FixtureBody | null {
  if (bytes.length === 0) return null;
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const text = bytes.toString('utf8');
  const isUtf8 = Buffer.from(text, 'utf8').equals(bytes);
  if (isUtf8 && /^application\/(?:[\w.-]+\+)?json$/.test(mediaType)) {
    try {
      return { json: JSON.parse(text) };
    } catch {
      return { text };
    }
  }
  if (isUtf8 && (mediaType === '' || mediaType.startsWith('text/') || /\+xml$|\/xml$|yaml|x-www-form-urlencoded|javascript/.test(mediaType))) return { text };
  return { base64: bytes.toString('base64') };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
