// A raw HTTP/1.1 answer (what openRaw's connection received) read as the suites' RawResponse, so
// expectFamilyResponse can judge answers written below node's response objects.
import type { RawResponse } from '../mock-server/support/http.js';

/** The first answer in `raw`: status, headers and the body its Content-Length covers (JSON parsed). */
export function rawAnswer(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete answer in ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
  const headers = new Headers(lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string]));
  const bodyBytes = Buffer.from(raw.slice(end + 4), 'latin1').subarray(0, Number(headers.get('content-length') ?? 0));
  const text = bodyBytes.toString('utf8');
  const contentType = headers.get('content-type') ?? '';
  return { status, headers, text, json: /[/+]json\b/.test(contentType) ? (JSON.parse(text) as unknown) : undefined, contentType };
}
