// A mock's close() may be called more than once (an afterAll and a finally both closing it): the
// second call threw `Server is not running.` Now every call settles once the first close has.
import { expect, it } from 'vitest';
import { startMockServer } from 'exchange-api-kit';

it('resolves a second close() after the first, and one made while the first is under way once it has finished', async () => {
  const mock = await startMockServer({ port: 0 });
  const finished: string[] = [];
  const first = mock.close().then(() => finished.push('first'));
  const meanwhile = mock.close().then(() => finished.push('meanwhile'));
  await Promise.all([first, meanwhile]);
  await mock.close();
  expect(finished).toEqual(['first', 'meanwhile']);
  await expect(fetch(`${mock.url}/api/v3/ping`)).rejects.toThrow();
});
