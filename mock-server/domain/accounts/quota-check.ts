// Whether a key's daily or monthly quota is spent, and for how long: the refusal's Retry-After
// runs to the UTC reset of the quota that is spent (the later one when both are).
import type { KeyLimits } from './api-keys.js';
import { nextUtcDay, nextUtcMonth, type RequestsUsed } from './usage.js';

export type QuotaCheck = { exhausted: false } | { exhausted: 'daily' | 'monthly'; retryAfterSeconds: number };

export function checkQuota(limits: KeyLimits, used: RequestsUsed, now: Date): QuotaCheck {
  const until = (resetsAtMs: number) => Math.max(1, Math.ceil((resetsAtMs - now.getTime()) / 1000));
  if (used.month >= limits.monthly) return { exhausted: 'monthly', retryAfterSeconds: until(nextUtcMonth(now)) };
  if (used.day >= limits.daily) return { exhausted: 'daily', retryAfterSeconds: until(nextUtcDay(now)) };
  return { exhausted: false };
}
