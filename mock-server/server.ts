// startMockServer(): the mock listening on a port (0 = an ephemeral one), for tests and the CLI.
import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { flushPerTurn } from './http/flush-per-turn.js';
import { baseUrl, listening } from './http/listening.js';
import { startPeerListener, type PeerOptions } from './http/peer-listener.js';
import { createApp, type AppOptions } from './app.js';
import type { Sandbox } from './sandbox.js';
import { createLogger, type LogLevel } from './log.js';
import { readSandboxState } from './snapshot/read-state.js';
import { keepInJournal, seedToResume } from './snapshot/journal-resume.js';
import { loadSandboxState } from './snapshot/sandbox-state.js';
import { SandboxHoldEnded } from './store/record-journal.js';
import type { OverridableOperation, OverrideHandlers } from './overrides/override-types.js';
import { startOptionsProblem } from './start-options-check.js';
import { serveOneMock } from './store/one-mock-per-store.js';

export interface StartOptions extends AppOptions {
  /** Default 0: an ephemeral port. */
  port?: number | undefined;
  /** Default 127.0.0.1; 0.0.0.0 to accept connections from other hosts (containers). */
  host?: string | undefined;
  /** Log one line per request at this level to stdout (default: no logging). Ignored when `logger` is given, but checked all the same. */
  logLevel?: LogLevel | undefined;
  /** A request's headers must arrive within this (default 10 s), or the connection is closed with 408 request_timeout. */
  headersTimeoutMs?: number | undefined;
  /** The whole request, body included, must arrive within this (default 60 s), or the connection is closed with 408 request_timeout. */
  requestTimeoutMs?: number | undefined;
  /**
   * A sandbox state document (what GET /__mock/state exports) to start from; one that is not of
   * the control contract's SandboxState, or whose records do not fit together, throws StateRejected.
   */
  state?: unknown;
  /**
   * On a store with a journal (sqlite:), check every flush against an encoding of the whole
   * sandbox and fail the answer loudly when a changed record was not marked (slow: for tests).
   * Default: on when the environment has EXCHANGE_API_KIT_JOURNAL_AUDIT=1.
   */
  journalAudit?: boolean | undefined;
  /** On a store replicas share (postgres://): where this process listens for them, should it hold the sandbox. */
  peer?: PeerOptions | undefined;
}

/**
 * Slow senders (one byte a second, a body announced but never sent) are cut off by these, so
 * they cannot hold connections for node's default five minutes. 60 s for a whole request still
 * lets a 20 MiB upload through at under 3 Mbit/s.
 */
export const defaultHeadersTimeoutMs = 10_000;
export const defaultRequestTimeoutMs = 60_000;

// How often due webhook deliveries are looked for in real time (advances of the virtual clock
// and POST /__mock/webhooks/run-due send them at once).
const dispatchIntervalMs = 200;

export interface RunningMockServer {
  /** Base URL, e.g. http://127.0.0.1:4010 (v3 under /api/v3, v1 under /v1/public). */
  url: string;
  /** On a store replicas share: the URL they forward requests to (the peer listener's). */
  peerUrl?: string;
  /** The default v3 token: every scope, no limits to speak of. */
  token: string;
  /** The default v1 site's credentials. */
  site: { apiKey: string; apiSecret: string; webhookSecret: string };
  seed: number;
  sandbox: Sandbox;
  /**
   * Answers an operation of the v3 or v1 API with `handler` instead of the simulation, until
   * resetOverrides (msw's `server.use`): the handler gets the validated request and returns a
   * status the operation declares with its payload (v3 `result`, v1 `data`) or an error code,
   * or undefined to let the simulation answer. The call still goes through authentication,
   * limits, signatures, idempotency and request validation, and the answer gets the envelope.
   * A later use of the same operation replaces the earlier one.
   */
  use<Id extends OverridableOperation>(operationId: Id, handler: OverrideHandlers[Id]): void;
  /** Removes every override (call it after each test, as msw's resetHandlers). A control reset keeps them. */
  resetOverrides(): void;
  /** Stops listening and writes what is left to the store (left open). Calls after the first settle as it does. */
  close(): Promise<void>;
}

export async function startMockServer(options: StartOptions = {}): Promise<RunningMockServer> {
  const prepared = await prepareMockServer(options);
  try {
    return await prepared.listen();
  } catch (error) {
    prepared.abandon();
    throw error;
  }
}

/** A mock built, its sandbox taken up, not listening yet: a replica taking over listens on the port it forwarded from. */
export interface PreparedMockServer {
  /** Listens (once): on `port` and `host`, and for replicas on a peer port when the store is shared. */
  listen(): Promise<RunningMockServer>;
  /** Gives the store back, for a mock that will not listen (its port was taken): another may start on it. */
  abandon(): void;
}

export async function prepareMockServer(options: StartOptions = {}): Promise<PreparedMockServer> {
  // Held to the control contract's rules, as serve's flags are: a token the API would refuse as
  // a minted one would start a mock whose own default token answers 401. The log level too:
  // pino's error for a bad one names no option.
  const problem = startOptionsProblem(options);
  if (problem !== undefined) throw new RangeError(`startMockServer: ${problem}`);
  const giveBack = options.store === undefined ? () => undefined : serveOneMock(options.store);
  try {
    return { ...(await prepareOnStore(options)), abandon: giveBack };
  } catch (error) {
    giveBack();
    throw error;
  }
}

/** prepareMockServer once the options are checked and the store is this mock's. */
async function prepareOnStore(options: StartOptions): Promise<Omit<PreparedMockServer, 'abandon'>> {
  const logger = options.logger ?? (options.logLevel === undefined || options.logLevel === 'silent' ? undefined : await createLogger({ level: options.logLevel }));
  const seed = await seedToResume(options.store, options.seed);
  const { listener, messages, sandbox, overrides, malformed } = createApp({ ...options, seed, ...(logger ? { logger } : {}) });
  await sandbox.resume();
  await keepInJournal(sandbox, options.journalAudit ?? process.env.EXCHANGE_API_KIT_JOURNAL_AUDIT === '1');
  if (options.state !== undefined) await loadSandboxState(sandbox, readSandboxState(options.state));
  // Each listener's server; what node's parser refuses gets the family's error body (client-error.ts).
  const makeServer = (requestListener: RequestListener): Server =>
    flushPerTurn(createServer({ ...serverTimeouts(options), ...messages }, requestListener))
      .on('clientError', malformed.clientError)
      .on('connect', malformed.connect);
  const listen = async (): Promise<RunningMockServer> => {
    const host = options.host ?? '127.0.0.1';
    const server = await listening(makeServer(listener), { port: options.port ?? 0, host });
    const address = server.address() as AddressInfo;
    const holding = sandbox.store.journal?.holding;
    // Replicas on the same database forward to this process (mock-server/replica/). A peer port
    // that cannot be had stops the start whole: nothing listens on a store given back.
    const peer =
      holding === undefined
        ? undefined
        : await startPeerListener(holding, makeServer, listener, options.peer).catch(async (error: unknown) => {
            await closed(server);
            throw error;
          });
    // From now on a webhook aimed at this listener is refused (or handed to the inbox in-process).
    sandbox.egress.ownListener.listeningOn(address);
    if (peer !== undefined) sandbox.egress.ownListener.listeningOn(peer.address);
    // And one aimed at a replica's port, which would forward it here.
    if (holding !== undefined) sandbox.egress.ownListener.alsoListening(() => holding.replicaListeners.live());
    sandbox.startDispatching(dispatchIntervalMs);
    const stop = async (): Promise<void> => {
      sandbox.stopDispatching();
      // Heard from now on: it may fail while the listeners close (a hold that ended fails it at once).
      const flushed = sandbox.journal?.flushDeferred().then(
        () => undefined,
        (error: unknown) => error,
      );
      await Promise.all([closed(server), peer === undefined ? undefined : closed(peer.server)]);
      const failed = await flushed;
      // A hold that ended writes nothing more: what the last write would have kept is lost with it.
      if (failed !== undefined && !(failed instanceof SandboxHoldEnded)) throw failed;
    };
    // Stopped once: a later close() (an afterAll after a finally) settles as the first does.
    let stopping: Promise<void> | undefined;
    return {
      url: baseUrl(host, address.port),
      ...(peer === undefined ? {} : { peerUrl: peer.url }),
      token: sandbox.defaultKey.token,
      site: { apiKey: sandbox.defaultSite.apiKey, apiSecret: sandbox.defaultSite.apiSecret, webhookSecret: sandbox.defaultSite.webhookSecret },
      seed: sandbox.seedInUse,
      sandbox,
      use: (operationId, handler) => overrides.use(operationId, handler),
      resetOverrides: () => overrides.reset(),
      close: () => (stopping ??= stop()),
    };
  };
  return { listen };
}

/** Stops `server` and ends its connections, those in the middle of a request too. */
function closed(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

/** The request timeouts of a listener of the mock; a RangeError names a bad one. */
export function serverTimeouts(options: Pick<StartOptions, 'headersTimeoutMs' | 'requestTimeoutMs'>): ServerOptions {
  const headersTimeout = options.headersTimeoutMs ?? defaultHeadersTimeoutMs;
  const requestTimeout = options.requestTimeoutMs ?? defaultRequestTimeoutMs;
  for (const [name, value] of Object.entries({ headersTimeout, requestTimeout })) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number of milliseconds of at least 1, got ${value}`);
  }
  if (headersTimeout > requestTimeout) throw new RangeError(`the headers timeout (${headersTimeout} ms) cannot be longer than the request timeout (${requestTimeout} ms)`);
  // node looks for expired requests on this beat (default 30 s, which would stretch the timeouts).
  const connectionsCheckingInterval = Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4)));
  return { headersTimeout, requestTimeout, connectionsCheckingInterval };
}
