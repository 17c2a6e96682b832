// The validating proxy as one piece: the forwarding server, the contract check of each exchange,
// the redaction of everything shown or stored, the report and (with a directory) the recorder.
// Paths under `passThrough` (the mock's own control API by default) are forwarded unjudged and
// unrecorded.
import type { IncomingHttpHeaders } from 'node:http';
import { redactQuery, SecretScrubber } from '../../mock-server/replay/redaction.js';
import { ContractCheck, notKept, type CapturedBody } from './contract-check.js';
import { FixtureRecorder } from './fixture-recorder.js';
import { ProxyReport } from './proxy-report.js';
import { startProxyServer, type ForwardedExchange, type ProxyServerOptions } from './proxy-server.js';

export interface ValidatingProxyOptions extends Omit<ProxyServerOptions, 'onExchange' | 'onFailure'> {
  /** Path prefixes forwarded without judging or recording. */
  passThrough: readonly string[];
  /** Write each judged exchange as a replayable fixture into this directory. */
  recordDir?: string;
  /** One line per violation, note and unanswered request (already redacted). */
  log(line: string): void;
  /** Called after each exchange or failure has been reported (the CLI counts them for --max-requests). */
  onReported?(): void;
}

export interface ValidatingProxy {
  url: string;
  report: ProxyReport;
  close(graceMs?: number, hurry?: AbortSignal): Promise<void>;
}

export async function startValidatingProxy(options: ValidatingProxyOptions): Promise<ValidatingProxy> {
  const check = new ContractCheck();
  const report = new ProxyReport(redactQuery(options.target.href));
  const recorder = options.recordDir === undefined ? undefined : new FixtureRecorder(options.recordDir);
  const passes = (url: string) => options.passThrough.some((prefix) => prefix !== '' && url.toLowerCase().startsWith(prefix.toLowerCase()));

  // A failure to judge or record one exchange is reported, never allowed to stop the proxy.
  const onExchange = (exchange: ForwardedExchange): void => {
    try {
      judgeAndRecord(exchange);
    } catch (error) {
      options.log(`error #${exchange.sequence} ${exchange.observed.method} ${redactQuery(exchange.observed.url)}: could not judge or record it: ${(error as Error).message}`);
    }
    options.onReported?.();
  };

  const judgeAndRecord = ({ sequence, startedAt, durationMs, observed }: ForwardedExchange): void => {
    if (passes(observed.url)) return;
    const scrubber = secretsOf(observed.url, observed.requestHeaders, observed.requestBody, observed.responseHeaders, observed.responseBody);
    const judgement = check.judge(observed);
    const lines = report.addExchange({
      sequence,
      method: observed.method,
      url: redactQuery(scrubber.scrub(observed.url)),
      family: judgement.family ?? null,
      operationId: judgement.operationId ?? null,
      status: observed.status,
      durationMs,
      violations: judgement.violations.map((violation) => ({ ...violation, message: scrubber.scrub(violation.message) })),
      notes: judgement.notes,
    });
    for (const line of lines) options.log(line);
    if (recorder !== undefined) {
      const file = recorder.record(observed, judgement.operationId, scrubber, startedAt);
      const unkept = [observed.requestBody, observed.responseBody].find((body) => !body.complete);
      if (file === undefined && unkept !== undefined) options.log(`note #${sequence}: not recorded, ${notKept(unkept)}`);
    }
  };

  const server = await startProxyServer({
    ...options,
    onExchange,
    onFailure: (failure) => {
      options.log(report.addFailure({ ...failure, url: redactQuery(failure.url) }));
      options.onReported?.();
    },
  });
  return { url: server.url, report, close: (graceMs, hurry) => server.close(graceMs, hurry) };
}

/** Every secret of the exchange: sensitive query parameters, headers both ways and sensitive fields of JSON bodies. */
function secretsOf(url: string, requestHeaders: IncomingHttpHeaders, requestBody: CapturedBody, responseHeaders: IncomingHttpHeaders, responseBody: CapturedBody): SecretScrubber {
  const scrubber = new SecretScrubber().collectQuery(url).collectHeaders(requestHeaders).collectHeaders(responseHeaders);
  for (const body of [requestBody, responseBody]) {
    if (body.bytes.length === 0) continue;
    try {
      scrubber.collectJson(JSON.parse(body.bytes.toString('utf8')));
    } catch {
      // not JSON: no fields to read secrets from
    }
  }
  return scrubber;
}
