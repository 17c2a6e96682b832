// loopbackOnly lets deliveries reach this machine only: anything else fails as a refused
// connection before the inner transport is called.
import { describe, expect, it } from 'vitest';
import { loopbackOnly } from '../../mock-server/dispatch/loopback-only.js';
import { attemptError, type Transport } from '../../mock-server/dispatch/transport.js';

function recording(): { transport: Transport; calls: string[] } {
  const calls: string[] = [];
  return { calls, transport: async (request) => (calls.push(request.url), { status: 204, headers: {}, body: '' }) };
}

const signal = new AbortController().signal;
const attempt = (url: string) => ({ url, headers: {}, body: '{}' });

describe('loopbackOnly', () => {
  it.each(['http://127.0.0.1:9/x', 'http://127.8.9.10/', 'http://localhost:4010/__mock/webhooks/inbox', 'http://[::1]:8080/'])('passes %s through', async (url) => {
    const inner = recording();
    await expect(loopbackOnly(inner.transport)(attempt(url), signal)).resolves.toMatchObject({ status: 204 });
    expect(inner.calls).toEqual([url]);
  });

  it.each(['http://10.0.0.1/', 'https://example.test/hook', 'http://192.168.1.5:80/', 'http://[2001:db8::1]/', 'http://127.0.0.1.evil.test/'])(
    'refuses %s without calling the transport',
    async (url) => {
      const inner = recording();
      const error = await loopbackOnly(inner.transport)(attempt(url), signal).catch((e: unknown) => e);
      expect(attemptError(error).code).toBe('connection_refused');
      expect(inner.calls).toEqual([]);
    },
  );

  it('rejects an unparsable URL instead of throwing', async () => {
    const inner = recording();
    await expect(loopbackOnly(inner.transport)(attempt('not a url'), signal)).rejects.toThrow();
  });
});
