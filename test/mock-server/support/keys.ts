// Keys and signed clients for the platform-middleware suites (auth, limits, idempotency): keys
// minted through the control API, v3 and v1 clients with signers on the mock's virtual clock.
import { createHmacSigner, depositV1SignatureScheme, DepositV1Client } from '../../../generated/deposit-v1/client.js';
import { exchangeV3SignatureScheme, ExchangeV3Client, type RequestSigner } from '../../../generated/exchange-v3/client.js';
import type { MintTokenRequest } from '../../../generated/sandbox-control/types.js';
import { startTestServer, type TestServer } from './server.js';

// No retries anywhere: a test must see the first answer (a 429 would otherwise be waited out).
const noRetry = { retry: false } as const;

export type Mock = TestServer;

export function startMock(seed = 4242): Promise<Mock> {
  return startTestServer({ seed });
}

export interface MintedKey {
  id: number;
  token: string;
  hmacSecret: string;
}

export async function mintKey(mock: Mock, body: MintTokenRequest = {}): Promise<MintedKey> {
  const { body: envelope } = await mock.control.mintToken({ body });
  return { id: envelope.result.key.id, token: envelope.result.token, hmacSecret: envelope.result.hmac_secret };
}

export interface SignerOptions {
  /** Shifts the signer's clock against the mock's (negative: an old timestamp). */
  skewMs?: number;
  nonce?: () => string;
}

/** A v3 HMAC signer on the mock's virtual clock. */
export function v3Signer(mock: Mock, secret: string, options: SignerOptions = {}): RequestSigner {
  return createHmacSigner(
    exchangeV3SignatureScheme,
    { secret },
    { now: () => mock.sandbox.clock.nowMs() + (options.skewMs ?? 0), ...(options.nonce ? { nonce: options.nonce } : {}) },
  );
}

export function v3Client(
  mock: Mock,
  token?: string,
  options: { signer?: RequestSigner; headers?: Record<string, string>; fetch?: typeof fetch } = {},
): ExchangeV3Client {
  return new ExchangeV3Client({ baseUrl: mock.url, ...(token !== undefined ? { token } : {}), ...options, ...noRetry });
}

export function v1Client(mock: Mock, credentials?: { key: string; secret: string }, options: SignerOptions = {}): DepositV1Client {
  const signer =
    credentials === undefined
      ? undefined
      : createHmacSigner(depositV1SignatureScheme, credentials, { now: () => mock.sandbox.clock.nowMs() + (options.skewMs ?? 0) });
  return new DepositV1Client({ baseUrl: mock.url, ...(signer ? { signer } : {}), ...noRetry });
}

/** A fetch that keeps the headers of the last response (ApiError does not carry them). */
export function headerRecorder(): { fetch: typeof fetch; last(): Headers } {
  let last: Headers | undefined;
  return {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      last = response.headers;
      return response;
    },
    last: () => {
      if (last === undefined) throw new Error('no response recorded yet');
      return last;
    },
  };
}

/** Advances the mock's virtual clock through the control API. */
export async function advance(mock: Mock, seconds: number): Promise<void> {
  await mock.control.advanceClock({ body: { seconds } });
}
