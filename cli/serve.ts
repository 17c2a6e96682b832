// `exchange-api-kit serve` (and `npm start`): the mock server on one port until SIGINT/SIGTERM,
// printing its URL and ready-to-use credentials.
import { egressModes, parseAllowList, type EgressMode } from '../mock-server/dispatch/egress-policy.js';
import { trustedProxies } from '../mock-server/http/trusted-proxies.js';
import { controlBodyLimits } from '../mock-server/http/body-limits.js';
import { nestsDeeperThan } from '../generated/runtime/json-depth.js';
import { adminTokenProblem, seedProblem, siteKeyProblem, siteSecretProblem, tokenProblem } from '../mock-server/start-options-check.js';
import { logLevels, type LogLevel } from '../mock-server/log.js';
import { defaultHeadersTimeoutMs, defaultRequestTimeoutMs, startMockServer, type RunningMockServer, type StartOptions } from '../mock-server/server.js';
import { FixtureError, readFixtures } from '../mock-server/replay/fixture-format.js';
import { ReplayBook } from '../mock-server/replay/replay-book.js';
import { apiPathPrefixes } from '../mock-server/app.js';
import { StateRejected } from '../mock-server/domain/state-rejected.js';
import { readSandboxState } from '../mock-server/snapshot/read-state.js';
import { StoredSeedMismatch } from '../mock-server/snapshot/journal-resume.js';
import { isSharedStoreSpec, isStoreSpec, openStore, shownStoreSpec, storeSpecHelp } from '../mock-server/store/open-store.js';
import type { SandboxStore } from '../mock-server/store/sandbox-store.js';
import { StoreOpenError, StoreUnreachableError } from '../mock-server/store/store-open-error.js';
import { JournalHeldElsewhere, SandboxDatabaseLost } from '../mock-server/store/record-journal.js';
import { onStoreDamaged } from '../mock-server/store/report-store-failure.js';
import { startStandby, type RunningStandby } from '../mock-server/replica/standby.js';
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { configOption, helpOption, optionsHelp, parsers, readOptions, UsageError, type OptionSpec } from './options.js';
import type { CommandIo } from './io.js';
import { serveWithWorkers } from './serve-workers.js';
import { keepHeldAnswersYoung } from './held-answers-gc.js';

/** Every serve option; docs/command-line.md has a row for each (test/cli/command-line-doc.test.ts). */
export const serveOptions: OptionSpec[] = [
  { name: 'port', env: 'PORT', placeholder: '<n>', help: 'port (default 4010; 0 = any free port)', parse: parsers.integer(0, 65535) },
  { name: 'host', env: 'HOST', placeholder: '<address>', help: 'address to listen on (default 127.0.0.1; 0.0.0.0 in containers)' },
  // The seed and the credentials hold to the control contract's rules (start-options-check.ts), as startMockServer's do.
  { name: 'seed', env: 'MOCK_SEED', placeholder: '<n>', help: 'seed: same seed, same ids, tokens and data', parse: parsers.judged(seedProblem, (text) => (text.trim() === '' ? Number.NaN : Number(text))) },
  {
    name: 'token',
    env: 'MOCK_TOKEN',
    placeholder: '<value>',
    help: 'fixed value of the default v3 token',
    secret: true,
    parse: parsers.judged(tokenProblem, (text) => text),
  },
  { name: 'site-key', env: 'MOCK_SITE_KEY', placeholder: '<value>', help: 'fixed API key of the default v1 site', parse: parsers.judged(siteKeyProblem, (text) => text) },
  { name: 'site-secret', env: 'MOCK_SITE_SECRET', placeholder: '<value>', help: 'fixed API secret of the default v1 site', secret: true, parse: parsers.judged(siteSecretProblem, (text) => text) },
  {
    name: 'admin-token',
    env: 'MOCK_ADMIN_TOKEN',
    placeholder: '<value>',
    help: 'require X-Mock-Admin-Token on the control API (held to the rule of --token: empty is refused)',
    // Refused when empty, from the environment too: a secret that was not set must not start an open mock.
    emptyEnvIsGiven: true,
    secret: true,
    parse: parsers.judged(adminTokenProblem, (text) => text),
  },
  { name: 'no-control', boolean: true, help: 'do not serve the sandbox control API under /__mock' },
  { name: 'no-docs', boolean: true, help: 'do not serve the API reference under /docs' },
  {
    name: 'webhook-egress',
    env: 'MOCK_WEBHOOK_EGRESS',
    placeholder: '<mode>',
    help: 'where webhooks may go: local (default: any but link-local, metadata and the mock itself), public (public addresses only: shared sandboxes) or loopback',
    parse: parsers.oneOf(egressModes),
  },
  {
    name: 'webhook-allow',
    env: 'MOCK_WEBHOOK_ALLOW',
    placeholder: '<cidr,...>',
    help: 'address ranges webhooks may reach whatever --webhook-egress says (e.g. 10.20.0.0/16)',
    parse: parsers.judged(allowListProblem, parsers.list),
  },
  { name: 'webhooks-loopback-only', env: 'MOCK_WEBHOOKS_LOOPBACK_ONLY', boolean: true, help: 'the same as --webhook-egress loopback (kept for existing scripts)' },
  {
    name: 'webhook-inbox-bytes',
    env: 'MOCK_WEBHOOK_INBOX_BYTES',
    placeholder: '<n>',
    help: 'the most the webhook inbox keeps, in bytes of its listing; the oldest records go first (default 16777216)',
    parse: parsers.integer(1024 * 1024, 256 * 1024 * 1024),
  },
  {
    name: 'trust-proxy',
    env: 'MOCK_TRUST_PROXY',
    placeholder: '<ip,cidr,...>',
    help: 'proxies whose X-Forwarded-For names the caller (addresses, CIDRs, loopback, linklocal, uniquelocal); default none: the header is ignored',
    parse: (text) => trustedProxies(parsers.list(text)),
  },
  { name: 'headers-timeout', env: 'MOCK_HEADERS_TIMEOUT', placeholder: '<s>', help: "seconds a request's headers may take to arrive (default 10)", parse: parsers.integer(1, 3600) },
  { name: 'request-timeout', env: 'MOCK_REQUEST_TIMEOUT', placeholder: '<s>', help: 'seconds a whole request, body included, may take to arrive (default 60)', parse: parsers.integer(1, 3600) },
  {
    name: 'webhook-retry-schedule',
    env: 'MOCK_WEBHOOK_RETRY_SCHEDULE',
    placeholder: '<s,s,...>',
    help: "seconds before each delivery attempt (default: the contract's)",
    parse: parsers.integerList(0, 31_536_000),
  },
  {
    name: 'webhook-disable-after',
    env: 'MOCK_WEBHOOK_DISABLE_AFTER',
    placeholder: '<n>',
    help: "failed deliveries in a row that disable a webhook endpoint (default: the contract's; 0 = never)",
    parse: parsers.integer(0, 1_000_000),
  },
  { name: 'webhook-egress-ips', env: 'MOCK_WEBHOOK_EGRESS_IPS', placeholder: '<ip,ip,...>', help: 'what /v1/public/webhooks/egress-ips lists (default 127.0.0.1)', parse: parsers.list },
  {
    name: 'log-level',
    env: 'MOCK_LOG_LEVEL',
    placeholder: '<level>',
    help: `level of the log (one line per request at info): ${logLevels.join(', ')}; default info`,
    parse: parsers.oneOf(logLevels),
  },
  {
    name: 'store',
    env: 'MOCK_STORE',
    placeholder: '<spec>',
    help: 'where the sandbox lives: memory (default: gone when the server stops), sqlite:PATH (a file) or postgres://USER@HOST:PORT/DB (a database: several mocks on one are one sandbox, held by one of them, the others forwarding to it); a restart on a file or database resumes the whole sandbox',
  },
  {
    name: 'peer-host',
    env: 'MOCK_PEER_HOST',
    placeholder: '<address>',
    help: 'with postgres://: the address replicas reach this mock at when it holds the sandbox (default 127.0.0.1; 0.0.0.0 when replicas run on other hosts)',
  },
  { name: 'peer-advertise', env: 'MOCK_PEER_ADVERTISE', placeholder: '<host>', help: "with postgres://: the host name replicas use for it (default --peer-host, or the machine's name when that is 0.0.0.0)" },
  {
    name: 'workers',
    env: 'MOCK_WORKERS',
    placeholder: '<n>',
    help: 'with postgres://: run n processes on the one port over the shared sandbox (one holds it, the others forward to it; a dead one is replaced)',
    parse: parsers.integer(1, 64),
  },
  { name: 'load', env: 'MOCK_LOAD', placeholder: '<file>', help: 'start from a sandbox state document (what GET /__mock/state exports)' },
  { name: 'replay', env: 'MOCK_REPLAY', placeholder: '<dir>', help: 'answer the exchanges `proxy --record <dir>` recorded first, then simulate' },
  { name: 'replay-only', env: 'MOCK_REPLAY_ONLY', boolean: true, help: "with --replay: 404 (in the family's error format) when no recording matches" },
  configOption,
  helpOption,
];

export const serveUsage = `usage: exchange-api-kit serve [options]   (npm start -- [options] runs the same)
Runs the mock server: exchange API v3 under /api/v3, deposit API v1 under /v1/public, the
sandbox control API under /__mock and the API reference under /docs. Flags win over
environment variables, which win over the config file.

${optionsHelp(serveOptions)}

Exit codes: 0 stopped by SIGINT/SIGTERM or --help, 1 failed to start (e.g. port in use) or
stopped on losing the hold on a postgres:// sandbox or its database, 2 bad flag, environment
variable or config file.`;

/** The start options from flags, environment and config file; throws UsageError. */
export function serveStartOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): { help: true } | { help: false; start: StartOptions; store: string; storeGivenBy: string; workers: number | undefined } {
  const { values, sources } = readOptions(serveOptions, argv, env);
  if (values.help === true) return { help: true };
  // How messages about the store name where it was given (the flag, MOCK_STORE or the config file).
  const storeGivenBy = sources.store ?? '--store';
  const store = storeSpecOf(values.store as string | undefined, storeGivenBy);
  const given = (name: string, key: keyof StartOptions): Partial<StartOptions> => (values[name] === undefined ? {} : { [key]: values[name] });
  const seconds = (name: string, key: keyof StartOptions): Partial<StartOptions> => (values[name] === undefined ? {} : { [key]: (values[name] as number) * 1000 });
  const egress = webhookEgressOf(values);
  const timeouts = { ...seconds('headers-timeout', 'headersTimeoutMs'), ...seconds('request-timeout', 'requestTimeoutMs') };
  if ((timeouts.headersTimeoutMs ?? defaultHeadersTimeoutMs) > (timeouts.requestTimeoutMs ?? defaultRequestTimeoutMs)) {
    throw new UsageError('--headers-timeout cannot be longer than --request-timeout (the request timeout includes the headers)');
  }
  return {
    help: false,
    store,
    storeGivenBy,
    workers: workersOf(values.workers as number | undefined, store),
    start: {
      port: (values.port as number | undefined) ?? 4010,
      host: (values.host as string | undefined) ?? '127.0.0.1',
      logLevel: (values['log-level'] as LogLevel | undefined) ?? 'info',
      control: values['no-control'] !== true,
      docs: values['no-docs'] !== true,
      ...(egress === undefined ? {} : { webhookEgress: egress }),
      ...timeouts,
      ...given('seed', 'seed'),
      ...given('token', 'token'),
      ...given('site-key', 'siteKey'),
      ...given('site-secret', 'siteSecret'),
      ...given('admin-token', 'adminToken'),
      ...given('webhook-retry-schedule', 'webhookRetrySchedule'),
      ...given('webhook-disable-after', 'webhookFailedDeliveriesLimit'),
      ...given('webhook-egress-ips', 'webhookEgressIps'),
      ...replayOptions(values.replay as string | undefined, values['replay-only'] === true),
      ...loadOption(values.load as string | undefined),
      ...given('webhook-allow', 'webhookAllow'),
      ...given('webhook-inbox-bytes', 'webhookInboxBytes'),
      ...given('trust-proxy', 'trustProxy'),
      ...peerOptions(values['peer-host'] as string | undefined, values['peer-advertise'] as string | undefined),
    },
  };
}

/** --peer-host and --peer-advertise, when given. */
function peerOptions(host: string | undefined, advertisedHost: string | undefined): Pick<StartOptions, 'peer'> {
  return host === undefined && advertisedHost === undefined ? {} : { peer: { host, advertisedHost } };
}

/** --store, checked for its form (the file or database is opened at start); `where`: where it was given. */
function storeSpecOf(spec: string | undefined, where: string): string {
  if (spec === undefined) return 'memory';
  if (isStoreSpec(spec)) return spec;
  throw new UsageError(`${where} is not understood: use ${storeSpecHelp}, got "${shownStoreSpec(spec)}"`);
}

/** --workers, in a primary only (a worker is one of them); only a database can be shared by processes. */
function workersOf(workers: number | undefined, store: string): number | undefined {
  if (workers === undefined || cluster.isWorker) return undefined;
  if (!isSharedStoreSpec(store)) {
    throw new UsageError(`--workers needs --store postgres://…: the sandbox of --store ${store} lives in one process, and the workers would each have their own`);
  }
  return workers;
}

/** The recordings of --replay, read once at start; a bad fixture is a configuration error. */
function replayOptions(dir: string | undefined, only: boolean): Pick<StartOptions, 'replay'> {
  if (dir === undefined) {
    if (only) throw new UsageError('--replay-only needs --replay <dir>');
    return {};
  }
  try {
    return { replay: { book: new ReplayBook(readFixtures(dir)), only } };
  } catch (error) {
    if (error instanceof FixtureError) throw new UsageError(`--replay: ${error.message}`);
    throw error;
  }
}

/** The document of --load, read and checked against the control contract at start; a bad one is a configuration error. */
function loadOption(file: string | undefined): Pick<StartOptions, 'state'> {
  if (file === undefined) return {};
  let document: unknown;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
    document = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--load ${file}: ${(error as Error).message}`);
  }
  // The limit PUT /__mock/state holds a document to, so a sandbox loads the same whichever way.
  const { jsonDepth } = controlBodyLimits('importSandboxState');
  if (nestsDeeperThan(text, jsonDepth)) throw new UsageError(`--load ${file}: nests arrays and objects more than ${jsonDepth} levels deep`);
  try {
    return { state: readSandboxState(stateDocumentOf(document)) };
  } catch (error) {
    if (error instanceof StateRejected) throw new UsageError(`--load ${file}: not a sandbox state document: ${error.message}`);
    throw error;
  }
}

/** The sandbox document itself, or GET /__mock/state's whole answer as `curl … > file` saves it (the document is its result). */
function stateDocumentOf(document: unknown): unknown {
  const answer = document as { format?: unknown; result?: unknown } | null;
  const isAnswer = typeof answer === 'object' && answer !== null && answer.format === undefined && typeof answer.result === 'object';
  return isAnswer ? answer.result : document;
}

/**
 * Why a --webhook-allow list is not valid: the entries the egress policy cannot read, each named
 * once (the option's message adds the whole text it was given).
 */
function allowListProblem(entries: readonly string[]): string | undefined {
  const refused = entries.filter((entry) => {
    try {
      parseAllowList([entry]);
      return false;
    } catch (error) {
      if (error instanceof RangeError) return true;
      throw error;
    }
  });
  return refused.length === 0 ? undefined : `must be CIDRs or IP addresses (not ${refused.map((entry) => `"${entry}"`).join(', ')})`;
}

/** --webhook-egress, or its older spelling --webhooks-loopback-only; both at odds is a usage error. */
function webhookEgressOf(values: Record<string, unknown>): EgressMode | undefined {
  const mode = values['webhook-egress'] as EgressMode | undefined;
  if (values['webhooks-loopback-only'] !== true) return mode;
  if (mode !== undefined && mode !== 'loopback') throw new UsageError(`--webhooks-loopback-only contradicts --webhook-egress ${mode}: give one of them`);
  return 'loopback';
}

export function banner(server: RunningMockServer, start: StartOptions): string {
  return `exchange-api-kit mock server listening on ${server.url}
  v3 (exchange):    ${server.url}/api/v3        token: ${server.token}
  v1 (deposits):    ${server.url}/v1/public     site key: ${server.site.apiKey}  secret: ${server.site.apiSecret}
                                           webhook secret: ${server.site.webhookSecret}
  sandbox control:  ${start.control === false ? 'off' : `${server.url}/__mock`}
  inspector:        ${start.control === false ? 'off' : `${server.url}/__mock/ui/`}
  API reference:    ${start.docs === false ? 'off' : `${server.url}/docs`}${replayLine(start)}
  webhook egress:   ${server.sandbox.egress.policy.mode}${start.webhookAllow?.length ? ` + ${start.webhookAllow.join(', ')}` : ''}
  store:            ${storeLine(server.sandbox.store)}
  seed: ${server.seed}  pid: ${process.pid}

  try: curl -H "Authorization: Bearer ${server.token}" ${server.url}/api/v3/private/ping`;
}

function storeLine(store: SandboxStore): string {
  if (store.engine === 'memory') return 'memory (the sandbox ends with the server)';
  // A PostgreSQL store's location is its URL (without the password) already.
  return `${store.engine === 'sqlite' ? `sqlite:${store.location}` : store.location} (a restart on it resumes the sandbox)`;
}

function replayLine(start: StartOptions): string {
  if (start.replay === undefined) return '';
  const { book, only } = start.replay;
  // Recorded through the proxy in front of more than the two APIs: said, since they never answer.
  const outside = book.countOutside(replayedBasePaths);
  const unused = outside === 0 ? '' : ` (${outside} of them under neither ${replayedBasePaths.join(' nor ')}, which the replay never answers)`;
  return `\n  replay:           ${book.size} recorded exchanges answer first${unused}${only ? '; nothing else of v3 and v1 is simulated' : ''}`;
}

/** The paths the replay answers under: the v3 and v1 APIs. */
const replayedBasePaths = [apiPathPrefixes.v3, apiPathPrefixes.v1];

/** Runs until SIGINT or SIGTERM; resolves with the exit code. */
export async function serve(argv: readonly string[], io: CommandIo): Promise<number> {
  let options: ReturnType<typeof serveStartOptions>;
  try {
    options = serveStartOptions(argv, io.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`exchange-api-kit serve: ${error.message}\n\n${serveUsage}`);
    return 2;
  }
  if (options.help) {
    io.stdout(serveUsage);
    return 0;
  }
  if (options.workers !== undefined) {
    const { port = 4010, host = '127.0.0.1' } = options.start;
    return serveWithWorkers({ workers: options.workers, port, host, store: shownStoreSpec(options.store) }, argv, io);
  }
  let store: SandboxStore;
  try {
    store = await openStore(options.store);
  } catch (error) {
    if (!(error instanceof StoreOpenError || error instanceof StoreUnreachableError)) throw error;
    io.stderr(`exchange-api-kit serve: ${options.storeGivenBy} ${shownStoreSpec(options.store)}: ${error.message}`);
    return error instanceof StoreOpenError ? 2 : 1;
  }
  keepHeldAnswersYoung(store);
  let server: RunningMockServer;
  try {
    server = await startMockServer({ ...options.start, store });
  } catch (error) {
    if (error instanceof JournalHeldElsewhere && store.journal?.holding !== undefined) return serveAsReplica(options.start, store, io);
    return notStarted(error as Error, store, io);
  }
  io.stdout(banner(server, options.start));
  const lost = holdLost(store);
  const stopped = await Promise.race([signalled(), lost, fileDamaged(store)]);
  await server.close();
  if (stopped === 'signal') {
    await store.close();
    return 0;
  }
  return stoppedByLoss(stopped, io);
}

/** A mock that stops because its store's file is damaged: exit 2, as such a file refused at start. */
class FileDamaged extends Error {}

/** Settles once a store operation finds the store's file damaged (SQLite's verdict), with why the mock stops. */
function fileDamaged(store: SandboxStore): Promise<FileDamaged> {
  return new Promise((resolve) => {
    const unsubscribe = onStoreDamaged((error) => {
      unsubscribe();
      resolve(new FileDamaged(`the sandbox file ${store.location} is damaged (${error.message}); stopped: start on a copy restored from a backup, or on another file`));
    });
  });
}

/**
 * Another mock holds the sandbox of the database: this one forwards to it and takes over when it
 * stops (mock-server/replica/standby.ts).
 */
async function serveAsReplica(start: StartOptions, store: SandboxStore, io: CommandIo): Promise<number> {
  let standby: RunningStandby;
  try {
    standby = await startStandby({ ...start, store });
  } catch (error) {
    return notStarted(error as Error, store, io);
  }
  io.stdout(`exchange-api-kit mock server listening on ${standby.url} as a replica (pid ${process.pid})
  another mock holds the sandbox of ${store.location}: every request here is forwarded to it,
  and this one takes the sandbox over when that one stops (its banner has the credentials)\n`);
  const tookOver = standby.takeover.then(
    (server) => {
      io.stdout(`took the sandbox over from the mock that held it\n${banner(server, start)}`);
      return holdLost(store);
    },
    (error: Error) => (error instanceof SandboxDatabaseLost ? lossReported(error, store) : error),
  );
  const stopped = await Promise.race([signalled(), tookOver]);
  await standby.close();
  if (stopped === 'signal') {
    await store.close();
    return 0;
  }
  return stoppedByLoss(stopped, io);
}

/**
 * Says why the mock stops on its own (its hold ended, the database went away, or its file is
 * damaged); exit 1, or 2 for a damaged file. The store is not closed: the hold ended with its
 * session already, and requests still under way would meet a pool ended under them; the process's
 * exit ends the connections (and the operating system a file's lock).
 */
function stoppedByLoss(why: Error, io: CommandIo): number {
  io.stderr(`exchange-api-kit serve: ${why.message}`);
  return why instanceof FileDamaged ? 2 : 1;
}

/** Closes the store and says why the mock (a holder or a replica) did not start; the exit code. */
async function notStarted(error: Error, store: SandboxStore, io: CommandIo): Promise<number> {
  await store.close();
  io.stderr(`exchange-api-kit serve: cannot start: ${whyNotStarted(error)}`);
  // Bad values the sandbox itself refuses (egress IPs, a --load document whose records do not
  // fit together, a --seed not the stored sandbox's) are configuration errors too.
  return error instanceof RangeError || error instanceof StateRejected || error instanceof StoreOpenError ? 2 : 1;
}

function signalled(): Promise<'signal'> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('signal'));
    process.once('SIGTERM', () => resolve('signal'));
  });
}

/**
 * Settles with the error saying why when the store's hold on its sandbox ends while this process
 * runs (the database went away, or the hold alone); never on other stores.
 */
function holdLost(store: SandboxStore): Promise<Error> {
  return new Promise((resolve) => store.journal?.holding?.onLost((error) => resolve(lossReported(error, store))));
}

/** What a mock that lost its hold, or its database, says as it stops. */
function lossReported(error: Error, store: SandboxStore): Error {
  if (error instanceof SandboxDatabaseLost) return new Error(`${error.message}; stopped`);
  return new Error(`lost the hold on the sandbox of ${store.location}: ${error.message}; stopped (a replica on the database, if one runs, takes it over)`);
}

function whyNotStarted(error: Error): string {
  if (error instanceof StateRejected) return `--load: the document's records do not fit together: ${error.message}`;
  if (error instanceof StoredSeedMismatch) {
    return `--seed ${error.given}: the sandbox in ${error.location} was built with seed ${error.stored}; start without --seed to resume it, or on another file`;
  }
  return error.message;
}
