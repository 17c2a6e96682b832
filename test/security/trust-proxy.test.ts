// The IP allow-list trusts X-Forwarded-For only from the proxies --trust-proxy names. By default
// none: the caller is the connection's peer, whatever the header claims. With the loopback proxy
// trusted (the test client connects from 127.0.0.1), the header names the caller, and only its
// nearest untrusted hop counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../generated/exchange-v3/client.js';
import { mintKey, v3Client } from '../mock-server/support/keys.js';
import { startTestServer, type TestServer } from '../mock-server/support/server.js';

/** The status of privatePing with this key and these headers. */
async function pingStatus(server: TestServer, token: string, headers: Record<string, string> = {}): Promise<[number, string]> {
  try {
    return [(await v3Client(server, token, { headers }).privatePing()).status, 'ok'];
  } catch (error) {
    if (error instanceof ApiError) return [error.status, error.code];
    throw error;
  }
}

describe('by default (no proxy trusted)', () => {
  let mock: TestServer;
  beforeAll(async () => {
    mock = await startTestServer({ seed: 97 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('ignores X-Forwarded-For: a key allowed only 10.0.0.0/8 is refused from 127.0.0.1 whatever the header says', async () => {
    const key = await mintKey(mock, { ip_allowlist: ['10.0.0.0/8'] });
    expect(await pingStatus(mock, key.token, { 'X-Forwarded-For': '10.1.2.3' })).toEqual([403, 'ip_not_allowed']);
  });

  it('judges the peer: a key allowed 127.0.0.1 passes, even with a header naming another address', async () => {
    const key = await mintKey(mock, { ip_allowlist: ['127.0.0.1'] });
    expect(await pingStatus(mock, key.token, { 'X-Forwarded-For': '203.0.113.50' })).toEqual([200, 'ok']);
  });
});

describe('with --trust-proxy loopback', () => {
  let mock: TestServer;
  beforeAll(async () => {
    mock = await startTestServer({ seed: 98, trustProxy: ['loopback'] });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('takes the caller from the header the trusted proxy wrote', async () => {
    const key = await mintKey(mock, { ip_allowlist: ['10.0.0.0/8'] });
    expect(await pingStatus(mock, key.token, { 'X-Forwarded-For': '10.1.2.3' })).toEqual([200, 'ok']);
    // Without the header the caller is the proxy itself, which the key does not allow.
    expect(await pingStatus(mock, key.token)).toEqual([403, 'ip_not_allowed']);
  });

  it('believes only the nearest untrusted hop: an address a client prepends does not help', async () => {
    const key = await mintKey(mock, { ip_allowlist: ['10.0.0.0/8'] });
    expect(await pingStatus(mock, key.token, { 'X-Forwarded-For': '10.1.2.3, 203.0.113.9' })).toEqual([403, 'ip_not_allowed']);
  });
});
