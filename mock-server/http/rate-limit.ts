// Rate limit and quotas of an authenticated v3 key: a fixed window of one minute on the virtual
// clock with the key's perMinute, and its daily and monthly quotas (UTC, counted by the usage
// ledger). Every private response past authentication carries the X-RateLimit-* and
// X-Api-Quota-* headers; an exhausted limit answers 429 with Retry-After.
import type { RequestHandler, Response } from 'express';
import type { ExchangeV3ErrorCode } from '../../generated/exchange-v3/contract-data.js';
import { checkQuota } from '../domain/accounts/quota-check.js';
import { admit, type RateDecision, type RateWindow } from '../domain/accounts/rate-window.js';
import type { ApiKey } from '../domain/accounts/api-keys.js';
import type { RequestsUsed } from '../domain/accounts/usage.js';
import type { Sandbox } from '../sandbox.js';
import type { ExpiringStore } from '../store/expiring-map.js';
import { HttpError } from './http-error.js';
import { limitHeaders } from './limit-headers.js';
import { requestLocals } from './locals.js';

export const rateWindowMs = 60_000;

export function rateLimit(sandbox: Sandbox, windows: ExpiringStore<RateWindow>): RequestHandler {
  return (_req, res, next) => {
    const key = requestLocals(res).key;
    if (key === undefined) {
      next();
      return;
    }
    const nowMs = sandbox.clock.nowMs();
    const now = new Date(nowMs);
    const id = String(key.id);
    // The in-memory store settles get and set within one microtask turn, so no other request
    // of the key runs between them (a shared store would need an atomic increment here).
    windows
      .get(id)
      .then((current) => {
        const { window, decision } = admit(current, nowMs, key.limits.perMinute, rateWindowMs);
        // One TTL for every entry keeps the store's insertion order its expiry order.
        return windows.set(id, window, rateWindowMs).then(() => decision);
      })
      .then((decision) => {
        const before = sandbox.usage.used(key.id, now);
        const quota = checkQuota(key.limits, before, now);
        const used = decision.allowed && !quota.exhausted ? sandbox.usage.countRequest(key.id, now) : before;
        setLimitHeaders(res, key, decision, used);
        if (!decision.allowed) {
          next(refusal('rate_limit_exceeded', `The rate limit of ${decision.limit} requests a minute is exhausted; retry in ${decision.retryAfterSeconds} s.`, decision.retryAfterSeconds));
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
