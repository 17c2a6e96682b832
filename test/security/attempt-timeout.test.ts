// An attempt ends by its timeout whatever it waits for. A tenant controls the name servers of the
// names it registers: a look-up that never answers (node cannot cancel getaddrinfo) must not hold
// the attempt, and so its place in the one delivery pool, past the attempt timeout.
import { expect, it } from 'vitest';
import { EgressPolicy } from '../../mock-server/dispatch/egress-policy.js';
import { httpTransport } from '../../mock-server/dispatch/http-transport.js';
import { attemptError } from '../../mock-server/dispatch/transport.js';

it('ends an attempt whose host name never resolves when its timeout fires, recorded as a timeout', async () => {
  let asked = 0;
  const transport = httpTransport({
    policy: new EgressPolicy({ mode: 'public' }),
    resolve: () => {
      asked += 1;
      return new Promise(() => undefined);
    },
  });
  const attempt = transport({ url: 'http://slow-name-server.test/hook', headers: {}, body: '{}' }, AbortSignal.timeout(200));
  const error: unknown = await attempt.then(
    () => 'answered',
    (reason: unknown) => reason,
  );
  expect(asked).toBe(1);
  expect(attemptError(error)).toMatchObject({ code: 'timeout' });
});
