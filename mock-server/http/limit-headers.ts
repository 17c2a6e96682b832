// Names of the rate-limit and quota response headers, read from the contract (its
// components/headers as the private responses and TooManyRequests use them).
import { exchangeV3HeaderNames as names } from '../../generated/exchange-v3/contract-data.js';

export const limitHeaders = {
  rateLimit: names.XRateLimitLimit,
  rateRemaining: names.XRateLimitRemaining,
  rateReset: names.XRateLimitReset,
  quotaDailyLimit: names.XApiQuotaDailyLimit,
  quotaDailyRemaining: names.XApiQuotaDailyRemaining,
  quotaMonthlyLimit: names.XApiQuotaMonthlyLimit,
  quotaMonthlyRemaining: names.XApiQuotaMonthlyRemaining,
  retryAfter: names.RetryAfter,
} as const;
