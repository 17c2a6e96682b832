// The generated clients a trigger drives a running mock with, and the credentials they use: the
// v3 token and v1 site given (--token, --site-key/--site-secret: the same names and variables as
// `serve`, so a shell that starts the mock with fixed credentials triggers as its default key
// and site), or a key minted and a site created through the control API for this trigger, whose
// webhooks go to the mock's built-in inbox. v1 requests are signed on the mock's virtual clock
// (read through getClock), which a trigger may advance.
import { createHmacSigner, DepositV1Client, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import { SandboxControlClient } from '../../generated/sandbox-control/client.js';
import { sandboxControlSecuritySchemes } from '../../generated/sandbox-control/contract-data.js';
import { sandboxControlRoutes, sandboxControlRoutesBasePath } from '../../generated/sandbox-control/routes.js';
import { contractEventTypes } from './trigger-plans.js';

export interface SessionOptions {
  mockUrl: URL;
  adminToken?: string;
  token?: string;
  site?: { key: string; secret: string };
  log(line: string): void;
}

export class MockSession {
  readonly control: SandboxControlClient;
  private clockOffsetMs = 0;
  private v3Client: ExchangeV3Client | undefined;
  private v1Client: DepositV1Client | undefined;
  /** Whether this session minted the key / created the site (then it may add what they lack). */
  ownsKey = false;

  constructor(private readonly options: SessionOptions) {
    const adminHeaders = options.adminToken === undefined ? {} : { headers: { [sandboxControlSecuritySchemes.adminToken.name]: options.adminToken } };
    this.control = new SandboxControlClient({ baseUrl: options.mockUrl.origin, retry: false, ...adminHeaders });
  }

  /**
   * The mock's built-in webhook inbox, the callback of what this session creates. It takes the
   * mock's own deliveries with or without an admin token: the mock hands them over in-process.
   */
  get inboxUrl(): string {
    const route = sandboxControlRoutes.find((candidate) => candidate.operationId === 'receiveInboxWebhook')!;
    return `${this.options.mockUrl.origin}${sandboxControlRoutesBasePath}${route.path}`;
  }

  async v3(): Promise<ExchangeV3Client> {
    if (this.v3Client !== undefined) return this.v3Client;
    let token = this.options.token;
    if (token === undefined) {
      const minted = (await this.control.mintToken({ body: { name: 'exchange-api-kit trigger' } })).body.result;
      token = minted.token;
      this.ownsKey = true;
      this.options.log(`minted v3 key ${minted.key.id} (client ${minted.key.client.id}) for this trigger`);
    }
    this.v3Client = new ExchangeV3Client({ baseUrl: this.options.mockUrl.origin, token, retry: false });
    if (this.ownsKey) {
      const endpoint = await this.v3Client.createWebhookEndpoint({ body: { name: 'trigger → inbox', url: this.inboxUrl, events: [...contractEventTypes.v3] as never } });
      this.options.log(`registered webhook endpoint ${endpoint.body.result.endpoint.id} → the mock's inbox`);
    }
    return this.v3Client;
  }

  async v1(): Promise<DepositV1Client> {
    if (this.v1Client !== undefined) return this.v1Client;
    let credentials = this.options.site;
    if (credentials === undefined) {
      const created = (await this.control.createSite({ body: { name: 'exchange-api-kit trigger', callback_url: this.inboxUrl } })).body.result;
      credentials = { key: created.site.api_key, secret: created.api_secret };
      this.options.log(`created v1 site ${created.site.id} calling back the mock's inbox for this trigger`);
    }
    await this.syncClock();
    this.v1Client = new DepositV1Client({
      baseUrl: this.options.mockUrl.origin,
      retry: false,
      signer: createHmacSigner(depositV1SignatureScheme, credentials, { now: () => Date.now() + this.clockOffsetMs }),
    });
    return this.v1Client;
  }

  /** Moves the mock's virtual clock forward and keeps signing on it. */
  async advance(seconds: number): Promise<void> {
    await this.control.advanceClock({ body: { seconds } });
    await this.syncClock();
  }

  private async syncClock(): Promise<void> {
    const clock = (await this.control.getClock()).body.result;
    this.clockOffsetMs = new Date(clock.now).getTime() - Date.now();
  }
}
