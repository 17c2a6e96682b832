// The library entry of exchange-api-kit (package "exports"): the mock server for tests (with its
// per-test overrides, `mock.use`), the generated typed clients of the three contracts, and the
// signing and webhook helpers.
import { createHmacSigner, DepositV1Client, depositV1SignatureScheme } from './generated/deposit-v1/client.js';
import { ExchangeV3Client } from './generated/exchange-v3/client.js';
import { SandboxControlClient } from './generated/sandbox-control/client.js';
import { sandboxControlSecuritySchemes } from './generated/sandbox-control/contract-data.js';
import type { RunningMockServer } from './mock-server/server.js';

export { startMockServer, type RunningMockServer, type StartOptions } from './mock-server/server.js';
export { openStore } from './mock-server/store/open-store.js';
export { StoreOpenError, StoreUnreachableError } from './mock-server/store/store-open-error.js';
export { StateRejected } from './mock-server/domain/state-rejected.js';
export type { SandboxStore } from './mock-server/store/sandbox-store.js';
export type { LogLevel } from './mock-server/log.js';
export type { OverridableOperation, OverrideContext, OverrideHandler, OverrideHandlers, OverrideRequest, OverrideResponse } from './mock-server/overrides/override-types.js';
export { ExchangeV3Client, exchangeV3SignatureScheme } from './generated/exchange-v3/client.js';
export { DepositV1Client, depositV1SignatureScheme } from './generated/deposit-v1/client.js';
export { SandboxControlClient } from './generated/sandbox-control/client.js';
export { ApiError, createHmacSigner, verifyWebhookSignature } from './generated/runtime/client-runtime.js';
export type { ApiResponse, ClientOptions, RequestSigner, SignatureScheme } from './generated/runtime/client-runtime.js';
export type * as ExchangeV3 from './generated/exchange-v3/types.js';
export type * as DepositV1 from './generated/deposit-v1/types.js';
export type * as SandboxControl from './generated/sandbox-control/types.js';

export interface MockClients {
  /** Exchange API v3 with the mock's default token (every scope). */
  v3: ExchangeV3Client;
  /** Deposit API v1 as the default site, signing on the mock's virtual clock. */
  v1: DepositV1Client;
  /** Deposit API v1 as another site (e.g. one made by control.createSite), signing on the virtual clock. */
  v1As(apiKey: string, apiSecret: string): DepositV1Client;
  /** The sandbox control API (clock, chain, tokens, sites, webhook inbox). */
  control: SandboxControlClient;
}

/**
 * Clients for a mock started in this process. v1 requests are signed with the mock's virtual
 * time, so they stay inside the signature window after the clock is advanced.
 */
export function mockClients(mock: RunningMockServer, options: { adminToken?: string | undefined } = {}): MockClients {
  const v1As = (apiKey: string, apiSecret: string) =>
    new DepositV1Client({
      baseUrl: mock.url,
      signer: createHmacSigner(depositV1SignatureScheme, { key: apiKey, secret: apiSecret }, { now: () => mock.sandbox.clock.nowMs() }),
    });
  const adminHeaders = options.adminToken === undefined ? {} : { headers: { [sandboxControlSecuritySchemes.adminToken.name]: options.adminToken } };
  return {
    v3: new ExchangeV3Client({ baseUrl: mock.url, token: mock.token }),
    v1: v1As(mock.site.apiKey, mock.site.apiSecret),
    v1As,
    control: new SandboxControlClient({ baseUrl: mock.url, ...adminHeaders }),
  };
}
