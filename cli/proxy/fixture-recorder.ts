// `proxy --record DIR`: writes each answered exchange as a fixture `serve --replay DIR` can answer
// with (mock-server/replay/fixture-format.ts). Secrets never reach the disk: sensitive headers,
// query parameters and JSON fields are replaced, and every secret value seen in the exchange is
// scrubbed from all its other strings. Hop-by-hop headers are dropped; the answer is stored decoded (without its
// Content-Encoding and Content-Length), as the mock will send it. An exchange with a body over
// the capture limit is not recorded (a fixture must be whole). Numbering continues after the
// fixtures already in DIR, so several sessions can record into one directory.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import { fixtureBody, fixtureFormat, fixtureVersion, type ExchangeFixture, type FixtureBody, type FixtureHeaders } from '../../mock-server/replay/fixture-format.js';
import { mapStrings, redactHeaders, redactJson, redactQueryString, type SecretScrubber } from '../../mock-server/replay/redaction.js';
import type { ObservedExchange } from './contract-check.js';

const notRecorded = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-authenticate', 'content-length', 'host']);
const notRecordedInAnswers = new Set([...notRecorded, 'content-encoding']);

export class FixtureRecorder {
  private next: number;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    const numbers = readdirSync(dir).map((name) => Number(/^(\d+)-/.exec(name)?.[1] ?? 0));
    this.next = Math.max(0, ...numbers) + 1;
  }

  /** Writes the exchange; returns the file name, or undefined when a body was not kept whole (over the cap, not decodable). */
  record(observed: ObservedExchange, operationId: string | undefined, scrubber: SecretScrubber, recordedAt: Date): string | undefined {
    if (!observed.requestBody.complete || !observed.responseBody.complete) return undefined;
    const mark = observed.url.indexOf('?');
    const fixture: ExchangeFixture = {
      format: fixtureFormat,
      version: fixtureVersion,
      recordedAt: recordedAt.toISOString(),
      operationId: operationId ?? null,
      request: {
        method: observed.method,
        path: mark === -1 ? observed.url : observed.url.slice(0, mark),
        query: mark === -1 ? '' : redactQueryString(observed.url.slice(mark + 1)),
        headers: headersOf(observed.requestHeaders, notRecorded),
        body: redactedBody(fixtureBody(observed.requestBody.bytes, text(observed.requestHeaders['content-type']))),
      },
      response: {
        status: observed.status,
        headers: headersOf(observed.responseHeaders, notRecordedInAnswers),
        body: redactedBody(fixtureBody(observed.responseBody.bytes, text(observed.responseHeaders['content-type']))),
      },
    };
    const file = `${String(this.next).padStart(6, '0')}-${observed.method.toLowerCase()}-${operationId ?? slug(fixture.request.path)}.json`;
    this.next += 1;
    const safe = mapStrings(fixture, (value) => scrubber.scrub(value));
    writeFileSync(join(this.dir, file), `${JSON.stringify(safe, null, 2)}\n`, { flag: 'wx' });
    return file;
  }
}

function headersOf(headers: IncomingHttpHeaders, dropped: ReadonlySet<string>): FixtureHeaders {
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !dropped.has(name.toLowerCase())));
  return redactHeaders(kept);
}

function redactedBody(body: FixtureBody | null): FixtureBody | null {
  return body !== null && 'json' in body ? { json: redactJson(body.json) } : body;
}

function text(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function slug(path: string): string {
  return path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'root';
}
