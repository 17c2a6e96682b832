// Rate limits, quotas and usage counters over real HTTP: the X-RateLimit-* and X-Api-Quota-*
// headers on every private response past authentication (and on no public one), 429 with
// Retry-After from a minted low-limit key, the window and quota resets on the virtual clock,
// and the counters of GET /private/usage.
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { admit, type RateWindow } from '../../mock-server/domain/accounts/rate-window.js';
import { ApiError, type ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import { limitHeaders } from '../../mock-server/http/limit-headers.js';
import { isObject, loadContract } from '../support/contracts.js';
import { advance, headerRecorder, mintKey, startMock, v3Client, type Mock } from './support/keys.js';

let mock: Mock;

beforeAll(async () => {
  mock = await startMock();
});

afterAll(async () => {
  await mock.close();
});

// A frozen clock makes the window and reset arithmetic exact.
beforeEach(async () => {
  await mock.control.resumeClock();
  await mock.control.freezeClock();
});

const recorder = headerRecorder();

/** A client for `token` whose failures come with the response headers. */
const clientFor = (token?: string): ExchangeV3Client => v3Client(mock, token, { fetch: recorder.fetch });

async function failure(promise: Promise<unknown>): Promise<ApiError & { headers: Headers }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return Object.assign(error, { headers: recorder.last() });
    throw error;
  }
  throw new Error('expected the call to fail');
}

function limits(headers: Headers): Record<string, string | null> {
  return Object.fromEntries(Object.values(limitHeaders).map((name) => [name, headers.get(name)]));
}

const windowEndSeconds = (nowMs: number) => Math.floor(nowMs / 60_000) * 60 + 60;

describe('the header names', () => {
  it('are the contract’s private response headers and its 429 Retry-After', () => {
    const contract = loadContract('v3');
    const sets = contract['x-response-headers'];
    const privateHeaders = isObject(sets) && isObject(sets.private) ? Object.keys(sets.private) : [];
    const publicHeaders = isObject(sets) && isObject(sets.public) ? Object.keys(sets.public) : [];
    const { retryAfter, ...perResponse } = limitHeaders;
    expect(new Set(Object.values(perResponse))).toEqual(new Set(privateHeaders.filter((name) => !publicHeaders.includes(name))));
    const components = contract.components;
    const tooMany = isObject(components) && isObject(components.responses) ? components.responses.TooManyRequests : undefined;
    expect(isObject(tooMany) && isObject(tooMany.headers) ? Object.keys(tooMany.headers) : []).toContain(retryAfter);
  });
});

describe('rate-limit and quota headers', () => {
  let client: ExchangeV3Client;

  beforeEach(async () => {
    const key = await mintKey(mock, { rate_limit_per_minute: 5, quota_daily: 10, quota_monthly: 20 });
    client = clientFor(key.token);
  });

  it('are on a private success, counting this request', async () => {
    const response = await client.privatePing();
    expect(limits(response.headers)).toEqual({
      [limitHeaders.rateLimit]: '5',
      [limitHeaders.rateRemaining]: '4',
      [limitHeaders.rateReset]: String(windowEndSeconds(mock.sandbox.clock.nowMs())),
      [limitHeaders.quotaDailyLimit]: '10',
      [limitHeaders.quotaDailyRemaining]: '9',
      [limitHeaders.quotaMonthlyLimit]: '20',
      [limitHeaders.quotaMonthlyRemaining]: '19',
      [limitHeaders.retryAfter]: null,
    });
  });

  it('are on a private error past authentication', async () => {
    await client.privatePing();
    const error = await failure(client.getContract({ path: { contract: 'no-such-contract' } }));
    expect(error.status).toBe(404);
    expect(limits(error.headers)).toMatchObject({ [limitHeaders.rateRemaining]: '3', [limitHeaders.quotaDailyRemaining]: '8' });
  });

  it('are not on an authentication failure (no key to count against)', async () => {
    const error = await failure(clientFor().privatePing());
    expect(error.status).toBe(401);
    expect(Object.values(limits(error.headers)).every((value) => value === null)).toBe(true);
  });

  it('are not on public responses', async () => {
    const response = await clientFor((await mintKey(mock)).token).ping();
    expect(response.status).toBe(200);
    expect(Object.values(limits(response.headers)).every((value) => value === null)).toBe(true);
  });
});

describe('rate limit', () => {
  it('refuses the request after the limit with 429 rate_limit_exceeded and Retry-After, until the window ends', async () => {
    const client = clientFor((await mintKey(mock, { rate_limit_per_minute: 3 })).token);
    for (let i = 0; i < 3; i += 1) expect((await client.privatePing()).status).toBe(200);
    const error = await failure(client.privatePing());
    const nowMs = mock.sandbox.clock.nowMs();
    expect(error.status).toBe(429);
    expect(error.code).toBe('rate_limit_exceeded');
    expect(error.headers.get(limitHeaders.retryAfter)).toBe(String(Math.ceil((windowEndSeconds(nowMs) * 1000 - nowMs) / 1000)));
    expect(error.headers.get(limitHeaders.rateRemaining)).toBe('0');

    await advance(mock, 60);
    const again = await client.privatePing();
    expect(again.status).toBe(200);
    expect(again.headers.get(limitHeaders.rateRemaining)).toBe('2');
  });

  it('is per key', async () => {
    const first = clientFor((await mintKey(mock, { rate_limit_per_minute: 1 })).token);
    const second = clientFor((await mintKey(mock, { rate_limit_per_minute: 1 })).token);
    expect((await first.privatePing()).status).toBe(200);
    expect((await failure(first.privatePing())).code).toBe('rate_limit_exceeded');
    expect((await second.privatePing()).status).toBe(200);
  });
});

describe('the rate window rule', () => {
  it('admits exactly min(limit, requests) per minute window, whatever the arrival times', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(fc.integer({ min: 0, max: 300_000 }), { maxLength: 60 }), (limit, offsets) => {
        const times = offsets.map((offset) => 1_790_000_000_000 + offset).sort((a, b) => a - b);
        let window: RateWindow | undefined;
        const admitted = new Map<number, number>();
        const arrived = new Map<number, number>();
        for (const time of times) {
          const result = admit(window, time, limit, 60_000);
          window = result.window;
          const start = time - (time % 60_000);
          arrived.set(start, (arrived.get(start) ?? 0) + 1);
          if (result.decision.allowed) admitted.set(start, (admitted.get(start) ?? 0) + 1);
          expect(result.decision.resetAtMs).toBe(start + 60_000);
          expect(result.decision.retryAfterSeconds).toBeGreaterThanOrEqual(1);
          expect(result.decision.retryAfterSeconds).toBeLessThanOrEqual(60);
        }
        for (const [start, count] of arrived) expect(admitted.get(start) ?? 0).toBe(Math.min(limit, count));
      }),
    );
  });
});

describe('quotas', () => {
  it('refuses past the daily quota with 429 quota_exceeded and Retry-After until the UTC day ends', async () => {
    const client = clientFor((await mintKey(mock, { quota_daily: 2 })).token);
    expect((await client.privatePing()).headers.get(limitHeaders.quotaDailyRemaining)).toBe('1');
    expect((await client.privatePing()).headers.get(limitHeaders.quotaDailyRemaining)).toBe('0');
    const error = await failure(client.privatePing());
    expect(error.status).toBe(429);
    expect(error.code).toBe('quota_exceeded');
    const now = mock.sandbox.clock.now();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    expect(error.headers.get(limitHeaders.retryAfter)).toBe(String(Math.ceil((midnight - now.getTime()) / 1000)));

    await advance(mock, Math.ceil((midnight - now.getTime()) / 1000));
    expect((await client.privatePing()).status).toBe(200);
  });

  it('refuses past the monthly quota', async () => {
    const client = clientFor((await mintKey(mock, { quota_monthly: 1 })).token);
    expect((await client.privatePing()).status).toBe(200);
    const error = await failure(client.privatePing());
    expect(error.code).toBe('quota_exceeded');
    expect(error.headers.get(limitHeaders.quotaMonthlyRemaining)).toBe('0');
  });
});

describe('GET /private/usage', () => {
  it('counts requests, errors, billable units and quota use per operation', async () => {
    const client = clientFor((await mintKey(mock, { rate_limit_per_minute: 100, quota_daily: 50 })).token);
    await client.privatePing();
    await client.privatePing();
    await failure(client.getContract({ path: { contract: 'no-such-contract' } }));
    const response = await client.getUsage();
    const { quota, usage } = response.body.result;
    // This request is counted against the quota before it is answered; its outcome after.
    expect(quota.day).toMatchObject({ limit: 50, used: 4, remaining: 46 });
    expect(usage.privatePing).toMatchObject({ requests: 2, errors: 0, billable_units: 2 });
    expect(usage.getContract).toMatchObject({ requests: 1, errors: 1, billable_units: 0 });
    expect(usage.getUsage).toBeUndefined();

    const again = await client.getUsage();
    expect(again.body.result.usage.getUsage).toMatchObject({ requests: 1, errors: 0 });
  });

  it('counts refusals past authentication as errors', async () => {
    const client = clientFor((await mintKey(mock, { rate_limit_per_minute: 2 })).token);
    await client.privatePing();
    await failure(client.privatePing().then(() => client.privatePing()));
    await advance(mock, 60);
    const usage = (await client.getUsage()).body.result.usage;
    expect(usage.privatePing).toMatchObject({ requests: 3, errors: 1, billable_units: 2 });
  });
});
