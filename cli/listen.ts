// `exchange-api-kit listen --forward-to URL`: follows a running mock's webhook events and POSTs a
// copy of each delivery to a local URL, with the exact body and the headers the mock signs with
// the endpoint's secret, printing one line per event with what the receiver answered.
import type { WebhookStreamDelivery, WebhookStreamEvent } from '../generated/sandbox-control/types.js';
import { adminTokenOf } from './admin-token.js';
import { helpOption, mockClientOptions, mockUrlOf, optionsHelp, parsers, readOptions, UsageError, type OptionSpec } from './options.js';
import type { CommandIo } from './io.js';
import { followWebhookStream, StreamRefused } from './listen/event-stream-client.js';

const forwardTimeoutMs = 10_000;

const listenOptions: OptionSpec[] = [
  { name: 'forward-to', placeholder: '<url>', help: 'where to POST each webhook, e.g. http://localhost:3000/webhooks', parse: parsers.httpUrl },
  { name: 'events', placeholder: '<type,...>', help: 'only these event types (default: every type)', parse: parsers.judged(eventsProblem, parsers.list) },
  ...mockClientOptions,
  { name: 'max-events', placeholder: '<n>', help: 'stop after this many events (default: run until SIGINT/SIGTERM)', parse: parsers.integer(1, Number.MAX_SAFE_INTEGER) },
  helpOption,
];

/** An empty --events is a script's slip (a variable left empty), not a wish for every type: that is no --events at all. */
function eventsProblem(types: readonly string[]): string | undefined {
  return types.length === 0 ? 'must name at least one event type (leave it out for every type)' : undefined;
}

export const listenUsage = `usage: exchange-api-kit listen --forward-to <url> [options]
Follows the webhook events of a running mock (v3 and v1) and POSTs a copy of each delivery to
<url>: the exact body, signed with the endpoint's secret exactly as the mock signs it (verify
it with verifyWebhookSignature and the endpoint's or site's webhook secret). One line per
event with the receiver's answer. Reconnects when the stream drops.

${optionsHelp(listenOptions)}

Exit codes: 0 stopped (SIGINT/SIGTERM, --max-events), 1 the mock refused the stream, 2 bad flag.`;


export async function listenCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let values: Record<string, unknown>;
  let sources: Record<string, string>;
  try {
    ({ values, sources } = readOptions(listenOptions, argv, io.env));
    if (values.help !== true && values['forward-to'] === undefined) throw new UsageError('--forward-to is required');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`exchange-api-kit listen: ${error.message}\n\n${listenUsage}`);
    return 2;
  }
  if (values.help === true) {
    io.stdout(listenUsage);
    return 0;
  }
  const forwardTo = values['forward-to'] as URL;
  const mockUrl = mockUrlOf(values);
  const events = values.events as string[] | undefined;
  const maxEvents = values['max-events'] as number | undefined;
  const adminToken = adminTokenOf(values, sources);
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  io.stdout(`exchange-api-kit listen: ${events === undefined ? 'every webhook event' : events.join(', ')} of ${mockUrl.origin} → ${forwardTo.href}`);
  let handled = 0;
  try {
    await followWebhookStream({
      mockUrl,
      ...(events !== undefined ? { events } : {}),
      ...(adminToken !== undefined ? { adminToken } : {}),
      signal: stop.signal,
      onStatus: (line) => io.stdout(line),
      onEvent: async (event) => {
        for (const line of await forwardEvent(event, forwardTo, stop.signal)) io.stdout(line);
        handled += 1;
        if (maxEvents !== undefined && handled >= maxEvents) stop.abort();
      },
    });
    return 0;
  } catch (error) {
    if (!(error instanceof StreamRefused)) throw error;
    io.stderr(`exchange-api-kit listen: ${error.message}`);
    return error.status === 422 ? 2 : 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * POSTs each delivery of the event to `url`, in order; one line per delivery (or one saying why
 * none). `stopped` (SIGINT/SIGTERM) cuts a forward in flight short: Ctrl-C does not wait for a
 * receiver that hangs.
 */
async function forwardEvent(event: WebhookStreamEvent, url: URL, stopped: AbortSignal): Promise<string[]> {
  const head = `${event.created_at}  ${event.event_type}  ${event.event_id}`;
  if (event.deliveries.length === 0) {
    return [`${head}  not forwarded: no ${event.family} webhook endpoint subscribes to ${event.event_type}, so the mock has no secret to sign it with`];
  }
  const lines: string[] = [];
  for (const delivery of event.deliveries) {
    if (stopped.aborted) break;
    lines.push(`${head}  → ${await forwardDelivery(event, delivery, url, stopped)}`);
  }
  return lines;
}

async function forwardDelivery(event: WebhookStreamEvent, delivery: WebhookStreamDelivery, url: URL, stopped: AbortSignal): Promise<string> {
  const started = performance.now();
  try {
    const signal = AbortSignal.any([stopped, AbortSignal.timeout(forwardTimeoutMs)]);
    const answer = await fetch(url, { method: 'POST', headers: delivery.headers, body: event.body, redirect: 'manual', signal });
    await answer.body?.cancel();
    return `${answer.status}${answer.statusText === '' ? '' : ` ${answer.statusText}`} (${Math.round(performance.now() - started)} ms, delivery ${delivery.delivery_id})`;
  } catch (error) {
    if (stopped.aborted) return `not delivered: listen stopped before the receiver answered (delivery ${delivery.delivery_id})`;
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return `not delivered: ${cause === 'TimeoutError' ? `no answer within ${forwardTimeoutMs / 1000} s` : cause} (delivery ${delivery.delivery_id})`;
  }
}
