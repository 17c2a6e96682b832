// Follows a running mock's webhook event stream (streamWebhookEvents, server-sent events) for
// `exchange-api-kit listen`: connects, hands each message to `onEvent` in order (waiting for it,
// so forwarding keeps the stream's order), and when the stream drops or the mock is not up yet
// reconnects with Last-Event-ID after the server's `retry:` delay, backing off to 10 s while
// it cannot connect. An answer that retrying cannot fix (401, 403, 404, 422, or one that is not an
// event stream) ends the follow with a StreamRefused. The path and the admin header are read from the generated control contract.
import { createParser } from 'eventsource-parser';
import { adminTokenRefusal, refusesAdminToken } from '../../admin-token-refusal.js';
import { adminTokenWays, type AdminToken } from '../admin-token.js';
import { sandboxControlSecuritySchemes } from '../../generated/sandbox-control/contract-data.js';
import { sandboxControlRoutes, sandboxControlRoutesBasePath } from '../../generated/sandbox-control/routes.js';
import type { WebhookStreamEvent } from '../../generated/sandbox-control/types.js';

export interface StreamOptions {
  /** The mock's base URL, e.g. http://127.0.0.1:4010. */
  mockUrl: URL;
  /** Only these event types (the stream filters them); all when absent. */
  events?: readonly string[];
  adminToken?: AdminToken;
  onEvent(event: WebhookStreamEvent): Promise<void>;
  /** Connected, dropped, reconnecting: one line each. */
  onStatus(line: string): void;
  /** Ends the follow (SIGINT, --max-events). */
  signal: AbortSignal;
}

export class StreamRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const maxBackoffMs = 10_000;
const streamPath = (() => {
  const route = sandboxControlRoutes.find((candidate) => candidate.operationId === 'streamWebhookEvents');
  if (route === undefined) throw new Error('the control contract has no streamWebhookEvents operation');
  return `${sandboxControlRoutesBasePath}${route.path}`;
})();

/** Resolves when `signal` aborts; rejects with StreamRefused when the mock refuses the stream. */
export async function followWebhookStream(options: StreamOptions): Promise<void> {
  const url = new URL(streamPath, options.mockUrl);
  if (options.events !== undefined && options.events.length > 0) url.searchParams.set('events', options.events.join(','));
  let lastEventId: string | undefined;
  let retryMs = 1_000;
  let failures = 0;
  while (!options.signal.aborted) {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (options.adminToken !== undefined) headers[sandboxControlSecuritySchemes.adminToken.name] = options.adminToken.value;
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    let reason: string;
    try {
      const response = await fetch(url, { headers, signal: options.signal });
      if (!response.ok || response.body === null) {
        const text = await response.text().catch(() => '');
        if (refusesAdminToken(response.status)) throw new StreamRefused(adminTokenRefusal(response.status, errorCodeOf(text), options.adminToken?.from, adminTokenWays), response.status);
        if ([404, 422].includes(response.status)) throw new StreamRefused(refusal(response.status, text), response.status);
        throw new Error(`HTTP ${response.status}`);
      }
      // A server that is not the mock (another service on the port, a wrong --mock) answers 200
      // with a page or JSON and closes: following it again would only repeat that, every second.
      const contentType = response.headers.get('content-type') ?? '';
      if (!/^text\/event-stream\s*(?:;|$)/i.test(contentType)) {
        await response.body.cancel();
        throw new StreamRefused(
          `${url.origin}${url.pathname} answered ${response.status} with ${contentType === '' ? 'no Content-Type' : contentType}, not an event stream: is ${url.origin} an exchange-api-kit mock with its control API on?`,
          response.status,
        );
      }
      failures = 0;
      options.onStatus(`connected to ${url.origin}${url.pathname}${lastEventId === undefined ? '' : ` (resuming after event ${lastEventId})`}`);
      const pending: WebhookStreamEvent[] = [];
      const parser = createParser({
        onEvent: (message) => {
          if (message.event !== 'webhook') return;
          if (message.id !== undefined) lastEventId = message.id;
          pending.push(JSON.parse(message.data) as WebhookStreamEvent);
        },
        onRetry: (ms) => {
          retryMs = ms;
        },
      });
      const decoder = new TextDecoder();
      for await (const chunk of response.body) {
        parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
        while (pending.length > 0) await options.onEvent(pending.shift()!);
      }
      reason = 'the mock closed the stream';
    } catch (error) {
      if (error instanceof StreamRefused) throw error;
      if (options.signal.aborted) return;
      failures += 1;
      reason = describe(error);
    }
    const waitMs = Math.min(maxBackoffMs, retryMs * 2 ** Math.max(0, failures - 1));
    options.onStatus(`stream dropped (${reason}); reconnecting in ${(waitMs / 1000).toFixed(1)} s`);
    await sleep(waitMs, options.signal);
  }
}

/** The control API envelope's `error.code`, when the text is one. */
function errorCodeOf(text: string): string | undefined {
  try {
    const code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

function refusal(status: number, text: string): string {
  let message = text;
  try {
    const body = JSON.parse(text) as { message?: string; error?: { details?: Record<string, string[]> } };
    message = [body.message, ...Object.values(body.error?.details ?? {}).flat()].filter(Boolean).join(' ');
  } catch {
    // not the control API's envelope: show the text
  }
  if (status === 404) return `the mock has no webhook stream at this URL (404): is it an exchange-api-kit mock with its control API on?`;
  return `the mock refused the stream (${status}): ${message}`;
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return cause ?? (error as Error).message;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
