// Whether a key's daily or monthly quota is spent, and for how long: the refusal's Retry-After
// runs to the UTC reset of the quota that is spent (the later one when both are).
import type { KeyLimits } from './api-keys.js';
import type { QuotaUse } from './usage.js';

export type QuotaCheck = { exhausted: false } | { exhausted: 'daily' | 'monthly'; retryAfterSeconds: number };

export function checkQuota(limits: KeyLimits, day: QuotaUse, month: QuotaUse, now: Date): QuotaCheck {
  const until = (resetsAt: Date) => Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000));
  if (month.used >= limits.monthly) return { exhausted: 'monthly', retryAfterSeconds: until(month.resetsAt) };
  if (day.used >= limits.daily) return { exhausted: 'daily', retryAfterSeconds: until(day.resetsAt) };
  return { exhausted: false };
}
