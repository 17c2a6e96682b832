// Starts the mock on an ephemeral port for a suite, with the generated clients pointed at it.
// EXCHANGE_API_KIT_TEST_STORE=sqlite runs every suite that names no store on a sqlite: file in a
// temporary folder instead of the memory engine, =postgres on a database of a PostgreSQL server
// started for the test server (with EXCHANGE_API_KIT_JOURNAL_AUDIT=1, every journal flush is
// checked against the whole sandbox).
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { DepositV1Client, createHmacSigner, depositV1SignatureScheme } from '../../../generated/deposit-v1/client.js';
import { ExchangeV3Client } from '../../../generated/exchange-v3/client.js';
import { SandboxControlClient } from '../../../generated/sandbox-control/client.js';
import { startMockServer, type RunningMockServer, type StartOptions } from '../../../mock-server/server.js';
import { durableTestStore } from './durable-test-store.js';

export interface TestServer extends RunningMockServer {
  /** v3 client with the default token. */
  v3: ExchangeV3Client;
  /** v3 client without a token. */
  v3Public: ExchangeV3Client;
  /** v1 client signing with the default site's credentials on the mock's virtual clock. */
  v1: DepositV1Client;
  control: SandboxControlClient;
}

// No retries: a test must see the first answer, never a repeated one.
const noRetry = { retry: false } as const;

export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  // Strict mode: every response is checked against the contract, so the suites catch drift.
  // Webhooks go to this machine only: fuzzed endpoint URLs must never be contacted.
  const durable = options.store === undefined ? await durableTestStore(process.env.EXCHANGE_API_KIT_TEST_STORE) : null;
  const server = await startMockServer({ port: 0, strict: true, webhookEgress: 'loopback', ...options, store: durable?.store ?? options.store });
  if (durable !== null) {
    const close = server.close;
    server.close = () => close().then(durable.dispose);
  }
  const signer = createHmacSigner(
    depositV1SignatureScheme,
    { key: server.site.apiKey, secret: server.site.apiSecret },
    { now: () => server.sandbox.clock.nowMs() },
  );
  const adminHeaders = options.adminToken === undefined ? {} : { headers: { 'X-Mock-Admin-Token': options.adminToken } };
  return Object.assign(server, {
    v3: new ExchangeV3Client({ baseUrl: server.url, token: server.token, ...noRetry }),
    v3Public: new ExchangeV3Client({ baseUrl: server.url, ...noRetry }),
    v1: new DepositV1Client({ baseUrl: server.url, signer, ...noRetry }),
    control: new SandboxControlClient({ baseUrl: server.url, ...noRetry, ...adminHeaders }),
  });
}

/**
 * One server for the test file, without the real-time dispatch loop (deliveries go out only on
 * run-due and clock advances, so counts are exact); before each test the sandbox is reset and
 * its clock frozen. `started` receives the server once it listens.
 */
export function useFrozenSandbox(options: StartOptions, started: (server: TestServer) => void): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
    server.sandbox.stopDispatching();
    started(server);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server?.control.resetSandbox();
    await server?.control.freezeClock();
  });
}

/** The built-in inbox of a server, to use as a callback or endpoint URL. */
export function inboxUrlOf(server: TestServer): string {
  return `${server.url}/__mock/webhooks/inbox`;
}
