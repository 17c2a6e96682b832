// A v1 site made through the control API, with a v1 client that signs as it on the mock's
// virtual clock (so its requests stay in the signature window after the clock is advanced).
import { DepositV1Client, createHmacSigner, depositV1SignatureScheme } from '../../../generated/deposit-v1/client.js';
import type { CreateSiteRequest, Site } from '../../../generated/sandbox-control/types.js';
import type { TestServer } from './server.js';

export interface TestSite {
  site: Site;
  apiSecret: string;
  v1: DepositV1Client;
}

export async function newSite(server: TestServer, body: CreateSiteRequest = {}): Promise<TestSite> {
  const created = (await server.control.createSite({ body })).body.result;
  return { site: created.site, apiSecret: created.api_secret, v1: siteClient(server, created.site.api_key, created.api_secret) };
}

/** A v1 client signing as the site with these credentials on `server` (e.g. a site of a mock restarted). */
export function siteClient(server: TestServer, apiKey: string, apiSecret: string): DepositV1Client {
  const signer = createHmacSigner(depositV1SignatureScheme, { key: apiKey, secret: apiSecret }, { now: () => server.sandbox.clock.nowMs() });
  return new DepositV1Client({ baseUrl: server.url, signer, retry: false });
}
