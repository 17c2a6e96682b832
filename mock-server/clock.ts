// The virtual clock every timeout, expiry, retry and rate window reads. Real time by default;
// the sandbox control API freezes it, resumes it and moves it forward. Listeners run after each
// advance so due timers fire on the new time. It never leaves the instants it may show
// (clock-range.ts): an advance past the last one is refused, and a clock that reaches it in real
// time, or is given a setting outside them, stops at the bound.
import { clockRange, withinClockRange } from './clock-range.js';

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
    const now = this.frozenAtMs ?? this.realNow() + this.offsetMs;
    if (withinClockRange(now)) return now;
    // A running clock carried past the last instant by real time (advances and loads are checked
    // before they set it), or a setting taken up from a store written before the clock was
    // bounded: it stops at the bound, so every answer, and an export, can still show the time.
    this.frozenAtMs = now < clockRange.minMs ? clockRange.minMs : clockRange.maxMs;
    this.changed();
    return this.frozenAtMs;
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

  /** How far the clock may still be advanced: to the last instant it may show. */
  headroomMs(): number {
    return clockRange.maxMs - this.nowMs();
  }

  /** Whether `setting` puts now within the instants the clock may show (a running one, on this clock's real time). */
  holds(setting: ClockSetting): boolean {
    return withinClockRange(setting.frozenAtMs ?? this.realNow() + setting.offsetMs);
  }

  /** Moves the clock `ms` whole milliseconds forward, at most its headroom (callers check both first). */
  async advance(ms: number): Promise<void> {
    if (!Number.isInteger(ms) || ms <= 0) throw new RangeError('advance takes a positive number of milliseconds');
    if (ms > this.headroomMs()) throw new RangeError('advance would carry the clock past the last instant it may show');
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
