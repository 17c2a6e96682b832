// Lifts a key's rate limit and quotas, for tests that send thousands of requests in a minute of
// the virtual clock (the limiter and the usage ledger still run).
import type { ApiKey } from '../../../mock-server/domain/accounts/api-keys.js';

export function unlimited(key: ApiKey): void {
  key.limits = { perMinute: Number.MAX_SAFE_INTEGER, daily: Number.MAX_SAFE_INTEGER, monthly: Number.MAX_SAFE_INTEGER };
}
