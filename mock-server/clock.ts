// The virtual clock every timeout, expiry, retry and rate window reads. Real time by default;
// the sandbox control API freezes it, resumes it and moves it forward. Listeners run after each
// advance so due timers fire on the new time.

export interface Clock {
  now(): Date;
  nowMs(): number;
}

export interface ClockState {
  now: Date;
  frozen: boolean;
  /** How far virtual time is ahead of real time, in seconds. */
  offsetSeconds: number;
}

type AdvanceListener = (now: Date) => void | Promise<void>;

export class VirtualClock implements Clock {
  private offsetMs = 0;
  private frozenAtMs: number | null = null;
  private readonly listeners = new Set<AdvanceListener>();

  constructor(private readonly realNow: () => number = Date.now) {}

  nowMs(): number {
    return this.frozenAtMs ?? this.realNow() + this.offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  state(): ClockState {
    return { now: this.now(), frozen: this.frozenAtMs !== null, offsetSeconds: (this.nowMs() - this.realNow()) / 1000 };
  }

  freeze(): void {
    this.frozenAtMs ??= this.nowMs();
  }

  /** Runs again from the frozen instant: the time spent frozen becomes part of the offset. */
  resume(): void {
    if (this.frozenAtMs === null) return;
    this.offsetMs = this.frozenAtMs - this.realNow();
    this.frozenAtMs = null;
  }

  async advance(ms: number): Promise<void> {
    if (!(ms > 0)) throw new RangeError('advance takes a positive duration');
    if (this.frozenAtMs !== null) this.frozenAtMs += ms;
    else this.offsetMs += ms;
    const now = this.now();
    for (const listener of this.listeners) await listener(now);
  }

  /** Back to real time, not frozen (sandbox reset). */
  reset(): void {
    this.offsetMs = 0;
    this.frozenAtMs = null;
  }

  onAdvance(listener: AdvanceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
