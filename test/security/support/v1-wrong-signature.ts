// v1 signature headers of the default site with a current timestamp and a wrong signature: v1
// reads the body before it checks the signature, so a request carrying them is still reading
// its body when a body limit, a timeout or a parse error strikes.
import { depositV1SignatureScheme } from '../../../generated/deposit-v1/client.js';
import type { TestServer } from '../../mock-server/support/server.js';

/** The headers as raw request lines, each ending in CRLF. */
export function wrongV1SignatureLines(mock: TestServer): string {
  const sign = depositV1SignatureScheme.headers;
  return `${sign.key!}: ${mock.site.apiKey}\r\n${sign.timestamp}: ${Math.floor(mock.sandbox.clock.nowMs() / 1000)}\r\n${sign.signature}: ${'ab'.repeat(32)}\r\n`;
}
