// startMockServer holds its default token and its seed to the control contract's rules, as
// `serve`'s flags do: a token the API would refuse to mint once started a mock whose own default
// token then answered 401, and a seed out of the contract's range started one all the same.
import { expect, it } from 'vitest';
import { startMockServer } from 'exchange-api-kit';

it.each([
  [{ token: 'has space in it 0123456789' }, /^startMockServer: token must match pattern/],
  [{ token: 'short' }, /^startMockServer: token must NOT have fewer than 16 characters/],
  [{ seed: -5 }, /^startMockServer: seed must be >= 0/],
  [{ seed: 1.5 }, /^startMockServer: seed must be integer/],
])('refuses %o', async (options, message) => {
  await expect(startMockServer({ port: 0, ...options })).rejects.toThrow(message);
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
