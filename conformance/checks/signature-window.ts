// After the checks: when the server refused signed requests for their timestamp, one line says
// so and why, instead of a puzzle of unrelated failures: the timestamp sent, the server's time
// by the Date of that answer, the window, and where this run took the server's time from. A
// refusal counts when its code names the window (v1 TIMESTAMP_OUT_OF_WINDOW), or when a bad
// signature's timestamp lay outside the window by the answer's Date (v3 invalid_signature).
import { families, type Family } from '../contract/families.js';
import type { RunContext } from '../context.js';
import type { RecordedExchange } from '../http/exchange-log.js';
import { describeOffset } from '../http/server-clock.js';
import { errorCodeOf } from '../judge/response.js';

interface Refusal {
  exchange: RecordedExchange;
  signedMs: number;
  serverMs: number;
  windowSeconds: number;
  /** By the answer's Date, the timestamp lay outside the window. */
  outside: boolean;
}

export function explainSignatureWindow(context: RunContext): void {
  const refusals = context.exchanges.all().flatMap((exchange) => {
    const refusal = timestampRefusal(exchange);
    return refusal === undefined ? [] : [refusal];
  });
  const first = refusals[0];
  if (first === undefined) return;
  const { exchange, signedMs, serverMs, windowSeconds, outside } = first;
  const why = outside
    ? `the server's clock moved away from the time this run took from ${context.serverClock.current.source}`
    : 'that is inside the window: the server checks signatures against another clock than the one in its Date header';
  context.log.add(
    'setup',
    'signature-window',
    'fail',
    `${refusals.length} signed request(s) were refused for their timestamp (window ${windowSeconds} s): the first, ${exchange.method} ` +
      `${exchange.url.pathname}, was signed at ${new Date(signedMs).toISOString()}, the server's Date said ${new Date(serverMs).toISOString()} ` +
      `(${describeOffset(serverMs - signedMs)}); ${why}`,
  );
}

function timestampRefusal(exchange: RecordedExchange): Refusal | undefined {
  const family = familyOf(exchange.url);
  if (family === undefined || exchange.status < 400) return undefined;
  const code = errorCodeOf(exchange);
  if (code !== family.codes.timestampOutOfWindow && code !== family.codes.badSignature) return undefined;
  const scheme = family.signatureScheme;
  const signed = Number(exchange.requestHeaders.get(scheme.headers.timestamp) ?? Number.NaN);
  const serverMs = Date.parse(exchange.headers.get('date') ?? '');
  if (!Number.isFinite(signed) || Number.isNaN(serverMs)) return undefined;
  const signedMs = signed * 1000;
  // The Date header has whole seconds: only a distance beyond that is the clocks'.
  const outside = Math.abs(serverMs - signedMs) > (scheme.window_seconds + 1) * 1000;
  if (code !== family.codes.timestampOutOfWindow && !outside) return undefined;
  return { exchange, signedMs, serverMs, windowSeconds: scheme.window_seconds, outside };
}

function familyOf(url: URL): Family | undefined {
  return Object.values(families).find((family) => url.pathname.startsWith(pathPrefix(family)));
}

/** What every path of the family starts with: `/api/v3/`, `/v1/public/`. */
function pathPrefix(family: Family): string {
  const paths = family.routes.map((route) => `${family.basePath}${route.path}`);
  let prefix = paths[0] ?? '';
  for (const path of paths) while (!path.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix.slice(0, prefix.lastIndexOf('/') + 1);
}
