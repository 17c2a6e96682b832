// The per-key rate limit as a pure rule: fixed windows aligned to multiples of the window length
// on the (virtual) clock, so the limit, the remaining count and the reset instant are plain
// arithmetic and a test that advances the clock by one window always starts a fresh one.
export interface RateWindow {
  /** Start of the window, ms since the epoch. */
  startMs: number;
  /** Requests admitted in it. */
  count: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** End of the window, ms since the epoch. */
  resetAtMs: number;
  /** Whole seconds until the window ends (at least 1): Retry-After of a refusal. */
  retryAfterSeconds: number;
}

/**
 * Admits a request into `window` (the key's current state, undefined for none) or refuses it.
 * Returns the window to keep: a new one when the old has ended, its count raised when admitted.
 */
export function admit(window: RateWindow | undefined, nowMs: number, limit: number, windowMs: number): { window: RateWindow; decision: RateDecision } {
  const startMs = nowMs - (nowMs % windowMs);
  const current = window !== undefined && window.startMs === startMs ? window : { startMs, count: 0 };
  const allowed = current.count < limit;
  const next = allowed ? { startMs, count: current.count + 1 } : current;
  const resetAtMs = startMs + windowMs;
  return {
    window: next,
    decision: {
      allowed,
      limit,
      remaining: Math.max(0, limit - next.count),
      resetAtMs,
      retryAfterSeconds: Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)),
    },
  };
}
