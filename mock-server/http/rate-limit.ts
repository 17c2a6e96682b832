// Rate limit and quotas of an authenticated v3 key: a fixed window of one minute on the virtual
// clock with the key's perMinute, and its daily and monthly quotas (UTC). Both are one atomic
// update of the key's meter in the store, so concurrent or pipelined requests cannot spend a
// place twice. Every private response past authentication carries the X-RateLimit-* and
// X-Api-Quota-* headers; an exhausted limit answers 429 with Retry-After.
import type { RequestHandler, Response } from 'express';
import type { ExchangeV3ErrorCode } from '../../generated/exchange-v3/contract-data.js';
import type { ApiKey } from '../domain/accounts/api-keys.js';
import { admitRequest, meterExpiresAt } from '../domain/accounts/key-meter.js';
import type { RateDecision } from '../domain/accounts/rate-window.js';
import type { RequestsUsed } from '../domain/accounts/usage.js';
import type { Sandbox } from '../sandbox.js';
import { HttpError } from './http-error.js';
import { limitHeaders } from './limit-headers.js';
import { requestLocals } from './locals.js';

export const rateWindowMs = 60_000;

export function rateLimit(sandbox: Sandbox): RequestHandler {
  return (_req, res, next) => {
    const key = requestLocals(res).key;
    if (key === undefined) {
      next();
      return;
    }
    const nowMs = sandbox.clock.nowMs();
    sandbox.meters
      .update(String(key.id), nowMs, (meter) => {
        const admitted = admitRequest(meter, nowMs, key.limits, rateWindowMs);
        return { value: admitted.meter, expiresAtMs: meterExpiresAt(nowMs), result: admitted.admission };
      })
      .then(({ rate, quota, used }) => {
        setLimitHeaders(res, key, rate, used);
        if (!rate.allowed) {
          next(refusal('rate_limit_exceeded', `The rate limit of ${rate.limit} requests a minute is exhausted; retry in ${rate.retryAfterSeconds} s.`, rate.retryAfterSeconds));
        } else if (quota.exhausted) {
          next(refusal('quota_exceeded', `The ${quota.exhausted} quota is exhausted; it resets in ${quota.retryAfterSeconds} s.`, quota.retryAfterSeconds));
        } else {
          next();
        }
      })
      .catch(next);
  };
}

/** The headers, with the day's and month's use after this request was counted. */
function setLimitHeaders(res: Response, key: ApiKey, decision: RateDecision, used: RequestsUsed): void {
  res.setHeader(limitHeaders.rateLimit, String(decision.limit));
  res.setHeader(limitHeaders.rateRemaining, String(decision.remaining));
  res.setHeader(limitHeaders.rateReset, String(Math.floor(decision.resetAtMs / 1000)));
  res.setHeader(limitHeaders.quotaDailyLimit, String(key.limits.daily));
  res.setHeader(limitHeaders.quotaDailyRemaining, String(Math.max(0, key.limits.daily - used.day)));
  res.setHeader(limitHeaders.quotaMonthlyLimit, String(key.limits.monthly));
  res.setHeader(limitHeaders.quotaMonthlyRemaining, String(Math.max(0, key.limits.monthly - used.month)));
}

function refusal(code: ExchangeV3ErrorCode, message: string, retryAfterSeconds: number): HttpError {
  return new HttpError(code, message, undefined, { [limitHeaders.retryAfter]: String(retryAfterSeconds) });
}
