// startMockServer holds its default token, its seed, its default site's credentials and its admin
// token to the control contract's rules, as `serve`'s flags do: a token the API would refuse to
// mint once started a mock whose own default token then answered 401, a site key createSite would
// refuse one whose default site's calls answered 401 (or could not be sent), a seed out of the
// contract's range started one all the same, and an empty admin token started a mock whose
// control API anyone could call. A bad log level is named too (pino's own error did not name the
// option), and a state document the contract refuses rejects with StateRejected, which the
// package exports.
import { expect, it } from 'vitest';
import { mockClients, startMockServer, StateRejected, type LogLevel } from 'exchange-api-kit';

it.each([
  [{ token: 'has space in it 0123456789' }, /^startMockServer: token must match pattern/],
  [{ token: 'short' }, /^startMockServer: token must NOT have fewer than 16 characters/],
  [{ seed: -5 }, /^startMockServer: seed must be >= 0/],
  [{ seed: 1.5 }, /^startMockServer: seed must be integer/],
  [{ siteKey: ' leading_space_0123456789' }, /^startMockServer: siteKey must match pattern/],
  [{ siteKey: 'has space 0123456789' }, /^startMockServer: siteKey must match pattern/],
  [{ siteKey: 'ключ_сайта_0123456789' }, /^startMockServer: siteKey must match pattern/],
  [{ siteKey: 'x' }, /^startMockServer: siteKey must NOT have fewer than 16 characters/],
  [{ siteSecret: 'short' }, /^startMockServer: siteSecret must NOT have fewer than 32 characters/],
  [{ siteSecret: `secret with spaces ${'0'.repeat(32)}` }, /^startMockServer: siteSecret must match pattern/],
  [{ adminToken: '' }, /^startMockServer: adminToken must NOT have fewer than 16 characters/],
  [{ adminToken: ' '.repeat(20) }, /^startMockServer: adminToken must match pattern/],
  [{ adminToken: 'short' }, /^startMockServer: adminToken must NOT have fewer than 16 characters/],
  [{ logLevel: 'loud' as LogLevel }, /^startMockServer: logLevel must be one of fatal, error, warn, info, debug, trace, silent$/],
])('refuses %o', async (options, message) => {
  const started = startMockServer({ port: 0, ...options });
  await expect(started).rejects.toThrow(RangeError);
  await expect(started).rejects.toThrow(message);
});

it('starts with a token and a seed the contract allows, and its token answers', async () => {
  const mock = await startMockServer({ port: 0, token: 'ci_default_token_0123456789', seed: 2 ** 31 - 1 });
  try {
    const ping = await fetch(`${mock.url}/api/v3/private/ping`, { headers: { authorization: `Bearer ${mock.token}` } });
    expect([mock.token, ping.status]).toEqual(['ci_default_token_0123456789', 200]);
  } finally {
    await mock.close();
  }
});

it("starts with site credentials the contract allows, and the default site's signed calls answer", async () => {
  const site = { siteKey: 'pk_ci_default_site_0001', siteSecret: 'sk_ci_default_site_0123456789abcdef0123' };
  const mock = await startMockServer({ port: 0, ...site });
  try {
    const deposits = await mockClients(mock).v1.listDeposits();
    expect([mock.site.apiKey, mock.site.apiSecret, deposits.status]).toEqual([site.siteKey, site.siteSecret, 200]);
  } finally {
    await mock.close();
  }
});

it('starts with an admin token the rule allows, which the control API then requires', async () => {
  const adminToken = 'ci_admin_token_0123456789';
  const mock = await startMockServer({ port: 0, adminToken });
  try {
    const clock = (headers: Record<string, string>) => fetch(`${mock.url}/__mock/clock`, { headers }).then((answer) => answer.status);
    expect([await clock({}), await clock({ 'x-mock-admin-token': '' }), await clock({ 'x-mock-admin-token': adminToken })]).toEqual([401, 401, 200]);
  } finally {
    await mock.close();
  }
});

it('rejects a state document the contract refuses with StateRejected, naming where and why', async () => {
  const started = startMockServer({ port: 0, state: { format: 'not a sandbox' } });
  await expect(started).rejects.toBeInstanceOf(StateRejected);
  await expect(started).rejects.toMatchObject({ name: 'StateRejected', pointer: expect.stringMatching(/^\//), reason: expect.any(String) });
});
