// Which recorded exchange answers a request (`serve --replay DIR`). The matching rule:
// - the method, and the path exactly as sent (case and trailing slash count);
// - the query as a set of name=value pairs, in any order (`?a=1&b=2` matches `?b=2&a=1`); secret
//   parameters (`?token=…`) compare redacted, as the recording stored them;
// - for unsafe methods (all but GET, HEAD, OPTIONS) the body too: equal JSON values (key order
//   and spacing do not count; secret fields compare redacted, as the recording stored them), else
//   equal bytes;
// - headers never count: tokens, signatures, timestamps, nonces and idempotency keys change on
//   every run.
// Several recordings of one request answer in recording order, one each; the last keeps
// answering after that (a list read before and after a create replays both states, then stays).
import { bodyBytes, type LoadedFixture } from './fixture-format.js';
import { redactJson, redactQueryString } from './redaction.js';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

interface Group {
  bodyKey: string;
  fixtures: LoadedFixture[];
  used: number;
}

export class ReplayBook {
  private readonly groups = new Map<string, Group[]>();

  constructor(fixtures: readonly LoadedFixture[]) {
    for (const loaded of fixtures) {
      const { request } = loaded.fixture;
      const key = requestKey(request.method, request.path, request.query);
      const recordedBody = request.body === null ? Buffer.alloc(0) : bodyBytes(request.body);
      const bodyKey = safeMethods.has(request.method.toUpperCase()) ? '' : bodyKeyOf(recordedBody, headerValue(request.headers, 'content-type'));
      const groups = this.groups.get(key) ?? [];
      const group = groups.find((candidate) => candidate.bodyKey === bodyKey);
      if (group === undefined) groups.push({ bodyKey, fixtures: [loaded], used: 0 });
      else group.fixtures.push(loaded);
      this.groups.set(key, groups);
    }
  }

  get size(): number {
    let count = 0;
    for (const groups of this.groups.values()) for (const group of groups) count += group.fixtures.length;
    return count;
  }

  /** How many recordings have a path under none of `basePaths` (the APIs the replay answers): they never answer. */
  countOutside(basePaths: readonly string[]): number {
    let count = 0;
    for (const groups of this.groups.values()) {
      for (const group of groups) {
        const { path } = group.fixtures[0]!.fixture.request;
        if (!basePaths.some((base) => path === base || path.startsWith(`${base}/`))) count += group.fixtures.length;
      }
    }
    return count;
  }

  /** Whether a recording has this method, path and query (the body is worth reading only then). */
  has(method: string, path: string, query: string): boolean {
    return this.groups.has(requestKey(method, path, query));
  }

  /** Whether the body takes part in matching a request of this method. */
  static matchesBody(method: string): boolean {
    return !safeMethods.has(method.toUpperCase());
  }

  /** The recording that answers this request (and counts the use), or undefined. */
  take(method: string, path: string, query: string, body: Buffer, contentType: string | undefined): LoadedFixture | undefined {
    const groups = this.groups.get(requestKey(method, path, query));
    if (groups === undefined) return undefined;
    const bodyKey = ReplayBook.matchesBody(method) ? bodyKeyOf(body, contentType) : '';
    const group = groups.find((candidate) => candidate.bodyKey === bodyKey);
    if (group === undefined) return undefined;
    const fixture = group.fixtures[Math.min(group.used, group.fixtures.length - 1)];
    group.used += 1;
    return fixture;
  }
}

function requestKey(method: string, path: string, query: string): string {
  const pairs = [...new URLSearchParams(redactQueryString(query))].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return `${method.toUpperCase()} ${path} ${new URLSearchParams(pairs).toString()}`;
}

function bodyKeyOf(bytes: Buffer, contentType: string | undefined): string {
  if (bytes.length === 0) return '';
  if (/json/i.test(contentType ?? '') || contentType === undefined) {
    try {
      return `json:${canonicalJson(redactJson(JSON.parse(bytes.toString('utf8'))))}`;
    } catch {
      // not JSON after all: compare the bytes
    }
  }
  return `bytes:${bytes.toString('base64')}`;
}

/** JSON text with object keys sorted, so key order does not count. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function headerValue(headers: Readonly<Record<string, string | string[]>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(', ') : value;
  return undefined;
}

/**
 * What `serve --replay DIR` gives the app: the recordings, and whether only they answer. Declared
 * here, not beside the express step that uses it, so the app's public types name no express type.
 */
export interface ReplayOptions {
  book: ReplayBook;
  /** Answer 404 instead of simulating when no recording matches. */
  only: boolean;
}
