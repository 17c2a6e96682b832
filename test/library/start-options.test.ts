// startMockServer holds its default token, its seed and its admin token to the control contract's
// rules, as `serve`'s flags do: a token the API would refuse to mint once started a mock whose own
// default token then answered 401, a seed out of the contract's range started one all the same,
// and an empty admin token started a mock whose control API anyone could call.
import { expect, it } from 'vitest';
import { startMockServer } from 'exchange-api-kit';

it.each([
  [{ token: 'has space in it 0123456789' }, /^startMockServer: token must match pattern/],
  [{ token: 'short' }, /^startMockServer: token must NOT have fewer than 16 characters/],
  [{ seed: -5 }, /^startMockServer: seed must be >= 0/],
  [{ seed: 1.5 }, /^startMockServer: seed must be integer/],
  [{ adminToken: '' }, /^startMockServer: adminToken must NOT have fewer than 16 characters/],
  [{ adminToken: ' '.repeat(20) }, /^startMockServer: adminToken must match pattern/],
  [{ adminToken: 'short' }, /^startMockServer: adminToken must NOT have fewer than 16 characters/],
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
