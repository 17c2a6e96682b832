// startMockServer(): the mock listening on a port (0 = an ephemeral one), for tests and the CLI.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from './app.js';
import type { Sandbox } from './sandbox.js';
import { createLogger, type LogLevel } from './log.js';
import type { OverridableOperation, OverrideHandlers } from './overrides/override-types.js';

export interface StartOptions extends AppOptions {
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default 127.0.0.1; 0.0.0.0 to accept connections from other hosts (containers). */
  host?: string;
  /** Log one line per request at this level to stdout (default: no logging). Ignored when `logger` is given. */
  logLevel?: LogLevel;
}

// How often due webhook deliveries are looked for in real time (advances of the virtual clock
// and POST /__mock/webhooks/run-due send them at once).
const dispatchIntervalMs = 200;

export interface RunningMockServer {
  /** Base URL, e.g. http://127.0.0.1:4010 (v3 under /api/v3, v1 under /v1/public). */
  url: string;
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
  close(): Promise<void>;
}

export async function startMockServer(options: StartOptions = {}): Promise<RunningMockServer> {
  const logger = options.logger ?? (options.logLevel === undefined || options.logLevel === 'silent' ? undefined : await createLogger({ level: options.logLevel }));
  const { listener, sandbox, overrides } = createApp({ ...options, ...(logger ? { logger } : {}) });
  await sandbox.resume();
  const host = options.host ?? '127.0.0.1';
  const server = createServer(listener).listen(options.port ?? 0, host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const { port } = address;
  // From now on a webhook aimed at this listener is refused (or handed to the inbox in-process).
  sandbox.egress.ownListener.listeningOn(address);
  sandbox.startDispatching(dispatchIntervalMs);
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
    token: sandbox.defaultKey.token,
    site: { apiKey: sandbox.defaultSite.apiKey, apiSecret: sandbox.defaultSite.apiSecret, webhookSecret: sandbox.defaultSite.webhookSecret },
    seed: sandbox.seedInUse,
    sandbox,
    use: (operationId, handler) => overrides.use(operationId, handler),
    resetOverrides: () => overrides.reset(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        sandbox.stopDispatching();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
