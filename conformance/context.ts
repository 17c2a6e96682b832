// Everything the checks share during one run: the options, the result log, the exchange log, the
// generated clients wired to them (no client retries: a check must see the first answer; the
// exchange log alone waits out 429s), the path values discovered so far, and which operations
// the run may touch.
import { createHmacSigner, depositV1Operations, depositV1SignatureScheme, DepositV1Client } from '../generated/deposit-v1/client.js';
import { exchangeV3Operations, exchangeV3SignatureScheme, ExchangeV3Client, type RequestSigner } from '../generated/exchange-v3/client.js';
import type { OperationSpec } from '../generated/runtime/client-runtime.js';
import type { RouteDefinition } from '../generated/runtime/router-runtime.js';
import { SandboxControlClient } from '../generated/sandbox-control/client.js';
import { sandboxControlSecuritySchemes } from '../generated/sandbox-control/contract-data.js';
import type { Family, FamilyName } from './contract/families.js';
import { ExchangeLog, type RecordedExchange } from './http/exchange-log.js';
import { ServerClock } from './http/server-clock.js';
import { WebhookReceiver } from './http/webhook-receiver.js';
import type { ConformanceOptions } from './options.js';
import { ResultLog } from './report.js';
import { PathValues } from './discovery.js';

export interface CallOutcome<T> {
  /** The last answer the call received; undefined when none arrived (network error). */
  exchange: RecordedExchange | undefined;
  value: T | undefined;
  error: unknown;
}

const noRetry = { retry: false } as const;

export class RunContext {
  readonly log: ResultLog;
  /** The server's time, for request signatures (kept in step with the Date of every answer). */
  readonly serverClock = new ServerClock();
  readonly exchanges = new ExchangeLog((answer, receivedAtMs) => this.serverClock.observe(answer.headers, answer.url, receivedAtMs));
  readonly paths = new PathValues();
  readonly control: SandboxControlClient | undefined;
  v3: ExchangeV3Client | undefined;
  v1: DepositV1Client | undefined;
  /** The v3 credentials in use (given or minted): for the auth checks' variants. */
  v3Credentials: { token: string; hmacSecret?: string } | undefined;
  /** The v1 site credentials in use (given or created). */
  v1Credentials: { key: string; secret: string } | undefined;

  private readonly cleanups: (() => Promise<void>)[] = [];
  private receiver: Promise<WebhookReceiver> | undefined;
  /**
   * Where the server was told to send webhooks (the receiver's path), with the secrets it gave for
   * them (a rotation adds one) and the flow they belong to.
   */
  readonly webhookTargets = new Map<string, { family: Family; secrets: string[]; flow: string }>();

  constructor(readonly options: ConformanceOptions) {
    this.log = new ResultLog(options.allowSkips === true);
    const adminHeaders = options.adminToken === undefined ? {} : { headers: { [sandboxControlSecuritySchemes.adminToken.name]: options.adminToken } };
    this.control = options.sandbox === true ? new SandboxControlClient({ baseUrl: options.baseUrl, fetch: this.exchanges.fetch, ...adminHeaders, ...noRetry }) : undefined;
    if (options.token !== undefined) this.useV3({ token: options.token, ...(options.hmacSecret !== undefined ? { hmacSecret: options.hmacSecret } : {}) });
    if (options.v1 !== undefined) this.useV1(options.v1);
  }

  useV3(credentials: { token: string; hmacSecret?: string }): void {
    this.v3Credentials = credentials;
    this.v3 = this.v3Client(credentials.token, credentials.hmacSecret);
  }

  useV1(credentials: { key: string; secret: string }): void {
    this.v1Credentials = credentials;
    this.v1 = new DepositV1Client({ baseUrl: this.options.baseUrl, signer: this.signer(depositV1SignatureScheme, credentials), fetch: this.exchanges.fetch, ...noRetry });
  }

  /** A v3 client with another token (or none), for the auth checks. */
  v3Client(token: string | undefined, hmacSecret?: string): ExchangeV3Client {
    return new ExchangeV3Client({
      baseUrl: this.options.baseUrl,
      ...(token !== undefined ? { token } : {}),
      ...(hmacSecret !== undefined ? { signer: this.signer(exchangeV3SignatureScheme, { secret: hmacSecret }) } : {}),
      fetch: this.exchanges.fetch,
      ...noRetry,
    });
  }

  /** A v1 client with other credentials, for the auth checks. */
  v1Client(credentials: { key: string; secret: string } | undefined): DepositV1Client {
    return new DepositV1Client({
      baseUrl: this.options.baseUrl,
      ...(credentials !== undefined ? { signer: this.signer(depositV1SignatureScheme, credentials) } : {}),
      fetch: this.exchanges.fetch,
      ...noRetry,
    });
  }

  /**
   * Authenticates a request built by hand (bytes the generated clients never send) as the
   * family's client would: the v3 Bearer token, signed when the key must sign; the v1 site's
   * signature. False when the run has no credentials for the family.
   */
  async authenticate(family: FamilyName, request: Parameters<RequestSigner>[0]): Promise<boolean> {
    if (family === 'v1') {
      if (this.v1Credentials === undefined) return false;
      await this.signer(depositV1SignatureScheme, this.v1Credentials)(request);
      return true;
    }
    const credentials = this.v3Credentials;
    if (credentials === undefined) return false;
    request.headers.set('authorization', `Bearer ${credentials.token}`);
    if (credentials.hmacSecret !== undefined) await this.signer(exchangeV3SignatureScheme, { secret: credentials.hmacSecret })(request);
    return true;
  }

  private signer(scheme: typeof depositV1SignatureScheme, credentials: { key?: string; secret: string }): RequestSigner {
    return createHmacSigner(scheme, credentials, { now: () => this.serverClock.now() });
  }

  /** The generated client of a family, if the run has its credentials. */
  clientOf(family: FamilyName): ExchangeV3Client | DepositV1Client | undefined {
    return family === 'v3' ? this.v3 : this.v1;
  }

  /** The generated operation spec, for calls made generically through the client runtime. */
  specOf(family: FamilyName, operationId: string): OperationSpec {
    const specs: Record<string, OperationSpec> = family === 'v3' ? exchangeV3Operations : depositV1Operations;
    const spec = specs[operationId];
    if (spec === undefined) throw new Error(`no generated spec for ${operationId}`);
    return spec;
  }

  /** Runs one client call and returns its last recorded answer with the value or the error. */
  async call<T>(run: () => Promise<T>): Promise<CallOutcome<T>> {
    const mark = this.exchanges.mark();
    let value: T | undefined;
    let error: unknown;
    try {
      value = await run();
    } catch (caught) {
      error = caught;
    }
    return { exchange: this.exchanges.since(mark).at(-1), value, error };
  }

  /** The run's local webhook receiver: started on first use, closed at the end of the run. */
  webhookReceiver(): Promise<WebhookReceiver> {
    this.receiver ??= WebhookReceiver.start(this.options.receiverHost ?? '127.0.0.1').then((receiver) => {
      this.onCleanup(() => receiver.close());
      return receiver;
    });
    return this.receiver;
  }

  /** The receiver's URL for a new target, registered with the secret its webhooks are signed with. */
  async webhookTarget(name: string, target: { family: Family; secret: string; flow: string }): Promise<string> {
    const receiver = await this.webhookReceiver();
    this.webhookTargets.set(`/${name}`, { family: target.family, secrets: [target.secret], flow: target.flow });
    return receiver.urlFor(name);
  }

  /** Undoes something a flow created, at the end of the run (after the read checks saw it). */
  onCleanup(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  /** Runs the cleanups, latest first; a failing one does not stop the others. */
  async cleanUp(): Promise<void> {
    for (const cleanup of this.cleanups.reverse()) await cleanup().catch(() => undefined);
  }

  /** Whether --only and the skip list leave this operation in the run. */
  selected(family: Family, route: RouteDefinition): boolean {
    const only = this.options.only;
    if (only !== undefined && !only.some((tag) => tag.toLowerCase() === route.tag.toLowerCase())) return false;
    return this.options.skipOperations?.[route.operationId] === undefined;
  }

  /** The operations of a family the run covers. */
  routes(family: Family): RouteDefinition[] {
    return family.routes.filter((route) => this.selected(family, route));
  }
}

