// `exchange-api-kit proxy --target URL`: the validating (and recording) proxy until SIGINT/SIGTERM,
// --max-requests or --duration, then the summary, the reports and the exit code.
import { sandboxControlRoutesBasePath } from '../generated/sandbox-control/routes.js';
import { helpOption, optionsHelp, parsers, readOptions, UsageError, type OptionSpec } from './options.js';
import type { CommandIo } from './io.js';
import { unwritableOutput, writeOutput } from '../output-path.js';
import { startValidatingProxy, type ValidatingProxy } from './proxy/validating-proxy.js';

const defaultMaxBodyBytes = 10 * 1024 * 1024;

const proxyOptions: OptionSpec[] = [
  { name: 'target', env: 'PROXY_TARGET', placeholder: '<url>', help: 'where to forward: the real service, a staging copy or the mock (http or https)', parse: parseTarget },
  { name: 'port', env: 'PROXY_PORT', placeholder: '<n>', help: 'port to listen on (default 4020; 0 = any free port)', parse: parsers.integer(0, 65535) },
  { name: 'host', env: 'PROXY_HOST', placeholder: '<address>', help: 'address to listen on (default 127.0.0.1)' },
  { name: 'record', placeholder: '<dir>', help: 'write each exchange as a fixture for `serve --replay <dir>` (secrets redacted)' },
  { name: 'junit', placeholder: '<file>', help: 'write a JUnit XML report at the end' },
  { name: 'json', placeholder: '<file>', help: 'write a JSON report at the end' },
  { name: 'fail-on-violation', boolean: true, help: 'exit 1 when any violation was seen' },
  { name: 'max-requests', placeholder: '<n>', help: 'stop after this many exchanges', parse: parsers.integer(1, Number.MAX_SAFE_INTEGER) },
  { name: 'duration', placeholder: '<seconds>', help: 'stop after this many seconds', parse: parsers.integer(1, 31_536_000) },
  {
    name: 'max-body-bytes',
    placeholder: '<n>',
    help: `bytes of each body kept to judge and record (default ${defaultMaxBodyBytes}); larger bodies are forwarded unjudged`,
    parse: parsers.integer(1024, 1024 * 1024 * 1024),
  },
  {
    name: 'pass-through',
    placeholder: '<prefix,...>',
    help: `path prefixes forwarded without judging or recording (default ${sandboxControlRoutesBasePath}, the mock's control API)`,
    parse: parsers.list,
  },
  helpOption,
];

export const proxyUsage = `usage: exchange-api-kit proxy --target <url> [options]
Forwards every request to the target unchanged (but for hop-by-hop headers and Host) and judges
each request and answer against the contracts (exchange API v3 and deposit API v1): one line per
violation, a summary at the end. Tokens, signatures, API keys and secrets are never printed or
written.

${optionsHelp(proxyOptions)}

Exit codes: 0 stopped (SIGINT/SIGTERM, --max-requests, --duration), 1 cannot listen, a report
that could not be written after all, or a violation was seen with --fail-on-violation, 2 bad flag
(a --record, --junit or --json path that cannot be written among them).`;

/** The target: an http(s) URL whose path (if any) is a base path; a query or fragment would be lost. */
function parseTarget(text: string): URL {
  const url = parsers.httpUrl(text);
  if (url.search !== '' || url.hash !== '') throw new Error('must not have a query or fragment');
  return url;
}

export async function proxyCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let values: Record<string, unknown>;
  try {
    values = readOptions(proxyOptions, argv, io.env).values;
    if (values.help !== true && values.target === undefined) throw new UsageError('--target is required');
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`exchange-api-kit proxy: ${error.message}\n\n${proxyUsage}`);
    return 2;
  }
  if (values.help === true) {
    io.stdout(proxyUsage);
    return 0;
  }
  const unwritable = unwritableOutput([
    { flag: '--record', path: values.record as string | undefined, kind: 'folder' },
    { flag: '--junit', path: values.junit as string | undefined, kind: 'file' },
    { flag: '--json', path: values.json as string | undefined, kind: 'file' },
  ]);
  if (unwritable !== undefined) {
    io.stderr(`exchange-api-kit proxy: ${unwritable}`);
    return 2;
  }

  const maxRequests = values['max-requests'] as number | undefined;
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  let reported = 0;
  let proxy: ValidatingProxy;
  try {
    proxy = await startValidatingProxy({
      target: values.target as URL,
      port: (values.port as number | undefined) ?? 4020,
      host: (values.host as string | undefined) ?? '127.0.0.1',
      maxBodyBytes: (values['max-body-bytes'] as number | undefined) ?? defaultMaxBodyBytes,
      passThrough: (values['pass-through'] as string[] | undefined) ?? [sandboxControlRoutesBasePath],
      ...(values.record !== undefined ? { recordDir: values.record as string } : {}),
      log: (line) => io.stdout(line),
      onReported: () => {
        reported += 1;
        if (maxRequests !== undefined && reported >= maxRequests) stop();
      },
    });
  } catch (error) {
    io.stderr(`exchange-api-kit proxy: cannot start: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return 1;
  }
  const target = values.target as URL; // shown without any user:password it may carry
  const recording = values.record !== undefined ? ` (recording into ${String(values.record)})` : '';
  io.stdout(`exchange-api-kit proxy listening on ${proxy.url} → ${target.origin}${target.pathname.replace(/\/$/, '')}${recording}`);

  // The first signal stops the proxy; one more (an impatient second Ctrl-C) cuts the wait for
  // exchanges in flight short instead of killing the process before the summary and the reports.
  const hurry = new AbortController();
  let stopping = false;
  const onSignal = (): void => (stopping ? hurry.abort() : stop());
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const duration = values.duration as number | undefined;
  const timer = duration === undefined ? undefined : setTimeout(stop, duration * 1000);
  await stopped;
  stopping = true;
  if (timer !== undefined) clearTimeout(timer);

  try {
    await proxy.close(undefined, hurry.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  io.stdout(proxy.report.summary());
  const failed =
    (values.junit !== undefined ? writeOutput(values.junit as string, proxy.report.junit()) : undefined) ??
    (values.json !== undefined ? writeOutput(values.json as string, proxy.report.json()) : undefined);
  if (failed !== undefined) {
    io.stderr(`exchange-api-kit proxy: ${failed}`);
    return 1;
  }
  return values['fail-on-violation'] === true && proxy.report.violationCount > 0 ? 1 : 0;
}
