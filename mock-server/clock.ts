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

/** What a store keeps of the clock: the offset from real time and the frozen instant, if any. */
export interface ClockSetting {
  offsetMs: number;
  frozenAtMs: number | null;
}

export class VirtualClock implements Clock {
  private offsetMs = 0;
  private frozenAtMs: number | null = null;
  private readonly listeners = new Set<AdvanceListener>();
  private readonly changeListeners = new Set<(setting: ClockSetting) => void>();

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
    this.changed();
  }

  /** Runs again from the frozen instant: the time spent frozen becomes part of the offset. */
  resume(): void {
    if (this.frozenAtMs === null) return;
    this.offsetMs = this.frozenAtMs - this.realNow();
    this.frozenAtMs = null;
    this.changed();
  }

  async advance(ms: number): Promise<void> {
    if (!(ms > 0)) throw new RangeError('advance takes a positive duration');
    if (this.frozenAtMs !== null) this.frozenAtMs += ms;
    else this.offsetMs += ms;
    this.changed();
    const now = this.now();
    for (const listener of this.listeners) await listener(now);
  }

  /** Back to real time, not frozen (sandbox reset). */
  reset(): void {
    this.offsetMs = 0;
    this.frozenAtMs = null;
    this.changed();
  }

  setting(): ClockSetting {
    return { offsetMs: this.offsetMs, frozenAtMs: this.frozenAtMs };
  }

  /** Takes up a setting kept by a store (a restart resumes the virtual time it left). */
  restore(setting: ClockSetting): void {
    this.offsetMs = setting.offsetMs;
    this.frozenAtMs = setting.frozenAtMs;
  }

  /** Called after every freeze, resume, advance and reset, with the new setting. */
  onChange(listener: (setting: ClockSetting) => void): void {
    this.changeListeners.add(listener);
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener(this.setting());
  }

  onAdvance(listener: AdvanceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
