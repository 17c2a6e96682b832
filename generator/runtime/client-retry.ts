// When to try a call again and how long to wait first.

export interface RetryOptions {
  /** Attempts in all, the first included; 3 by default. */
  maxAttempts?: number | undefined;
  /** Backoff before the first retry (before jitter); 200 by default. */
  baseDelayMs?: number | undefined;
  /** Upper bound of any wait, Retry-After included; 30 000 by default. */
  maxDelayMs?: number | undefined;
}

/** RetryOptions with every default filled in. */
export type RetryPolicy = { [K in keyof RetryOptions]-?: NonNullable<RetryOptions[K]> };

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 };
  return {
    maxAttempts: Math.max(1, Math.floor(options?.maxAttempts ?? 3)),
    baseDelayMs: options?.baseDelayMs ?? 200,
    maxDelayMs: options?.maxDelayMs ?? 30_000,
  };
}

/** Exponential backoff with full jitter: uniform in [0, min(max, base · 2^retry)). */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number): number {
  return random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
}

/** Retry-After as milliseconds: integer seconds or an HTTP-date; undefined when absent or unreadable. */
export function retryAfterDelay(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait between two attempts: `sleep` when one is injected, else a timer. It ends at once
 * when the signal aborts, rejecting with the signal's reason as fetch does (an injected sleep
 * that knows nothing of the signal cannot hold the call), and the timer never outlives it.
 */
export function pause(ms: number, signal: AbortSignal | undefined, sleep: ((ms: number) => Promise<void>) | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      settle();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const slept = sleep === undefined ? new Promise<void>((done) => (timer = setTimeout(done, ms))) : sleep(ms);
    slept.then(
      () => {
        settle();
        resolve();
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}
