// An integrator's program over every public export of the installed package (run as ES module).
// It prints one JSON line that test/library/installed-package.test.ts checks.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as kit from 'exchange-api-kit';
import {
  ApiError,
  DepositV1Client,
  ExchangeV3Client,
  SandboxControlClient,
  StateRejected,
  createHmacSigner,
  depositV1SignatureScheme,
  exchangeV3SignatureScheme,
  mockClients,
  openStore,
  startMockServer,
  verifyWebhookSignature,
  type ApiResponse,
  type ClientOptions,
  type DepositV1,
  type ExchangeV3,
  type LogLevel,
  type MockClients,
  type OverridableOperation,
  type OverrideContext,
  type OverrideHandler,
  type OverrideHandlers,
  type OverrideRequest,
  type OverrideResponse,
  type RequestSigner,
  type RunningMockServer,
  type SandboxControl,
  type SandboxStore,
  type SignatureScheme,
  type StartOptions,
} from 'exchange-api-kit';
import * as conformance from 'exchange-api-kit/conformance';
import {
  knownNames,
  renderJson,
  renderJunit,
  renderTable,
  runConformance,
  type CheckResult,
  type ConformanceOptions,
  type Outcome,
  type Report,
} from 'exchange-api-kit/conformance';

// Options as integrators write them: unset values come from the environment as undefined.
const logLevel: LogLevel | undefined = process.env.MOCK_LOG_LEVEL as LogLevel | undefined;
const options: StartOptions = { port: 0, seed: 7, logLevel, adminToken: process.env.MOCK_ADMIN_TOKEN };
const mock: RunningMockServer = await startMockServer(options);
try {
  const clients: MockClients = mockClients(mock, { adminToken: undefined });
  const v3 = new ExchangeV3Client({ baseUrl: mock.url, token: mock.token, basePath: undefined } satisfies Partial<ClientOptions> & { baseUrl: string });
  const ping: ApiResponse<ExchangeV3.PingResult> = await v3.ping();

  const signer: RequestSigner = createHmacSigner(depositV1SignatureScheme, { key: mock.site.apiKey, secret: mock.site.apiSecret });
  const v1 = new DepositV1Client({ baseUrl: mock.url, signer });
  const deposit: DepositV1.Deposit = (await v1.createDeposit({ body: { order_id: 'ORD-1', asset: 'BTC', amount: '0.01' } })).body.data;

  const control = new SandboxControlClient({ baseUrl: mock.url });
  const clock: SandboxControl.ClockState = (await control.getClock()).body.result;

  let refused: ApiError | undefined;
  try {
    await new ExchangeV3Client({ baseUrl: mock.url, token: 'not-a-key' }).privatePing();
  } catch (error) {
    if (error instanceof ApiError) refused = error;
  }

  // A per-test override: the next privatePing is answered by the handler, then the simulation again.
  let overriddenRequestId: string | undefined;
  const overridden: OverridableOperation = 'privatePing';
  const answer: OverrideHandler<'privatePing'> = (_request: OverrideRequest<'privatePing'>, context: OverrideContext): OverrideResponse<'privatePing'> => {
    overriddenRequestId = context.requestId;
    return { status: 200, body: null };
  };
  const handlers: Pick<OverrideHandlers, 'privatePing'> = { privatePing: answer };
  mock.use('privatePing', handlers.privatePing);
  const overriddenPing = (await clients.v3.privatePing()).requestId;
  mock.resetOverrides();

  const scheme: SignatureScheme = exchangeV3SignatureScheme;
  const body = '{"id":"evt_1"}';
  const { createHmac } = await import('node:crypto');
  const signature = createHmac('sha256', 'whsec').update(body).digest('hex');

  // A mock on a store opened by the program (here the memory engine: the durable ones need their optional peer).
  const store: SandboxStore = await openStore('memory');
  const onStore = await startMockServer({ port: 0, store });
  const storePing = (await mockClients(onStore).v3.privatePing()).status;
  await onStore.close();
  await store.close();

  // A state document the control contract refuses: StateRejected says where.
  const stateRefusedAt = await startMockServer({ port: 0, state: {} }).then(
    (started) => started.close().then(() => 'started'),
    (error: unknown) => (error instanceof StateRejected ? error.pointer : String(error)),
  );

  const conformanceOptions: ConformanceOptions = { baseUrl: mock.url, sandbox: true, only: ['Platform'], token: undefined };
  const report: Report = await runConformance(conformanceOptions);
  const failures: CheckResult[] = report.results.filter((result) => result.outcome === ('fail' satisfies Outcome));
  const rendered = [renderTable(report), renderJunit(report), renderJson(report)];

  const contract = readFileSync(fileURLToPath(import.meta.resolve('exchange-api-kit/contracts/exchange-v3.openapi.yaml')), 'utf8');
  const bundled = readFileSync(fileURLToPath(import.meta.resolve('exchange-api-kit/openapi/deposit-v1.yaml')), 'utf8');

  console.log(
    JSON.stringify({
      exports: Object.keys(kit).sort(),
      conformanceExports: Object.keys(conformance).sort(),
      ping: ping.status,
      v1Deposit: deposit.status,
      mockV3: (await clients.v3.privatePing()).status,
      storePing,
      stateRefusedAt,
      frozen: typeof clock.frozen,
      refused: refused?.code,
      override: { operation: overridden, answered: overriddenRequestId !== undefined && overriddenRequestId === overriddenPing },
      signatureHeader: scheme.headers.signature,
      webhookVerified: verifyWebhookSignature(body, signature, 'whsec'),
      conformance: { tags: knownNames().tags.length, passed: report.summary.pass, failures: failures.length, rendered: rendered.every((text) => text.length > 0) },
      contractOpenApi: contract.startsWith('openapi: 3.1') || /^openapi:/m.test(contract),
      bundledOpenApi: /^openapi:/m.test(bundled),
    }),
  );
} finally {
  await mock.close();
}
