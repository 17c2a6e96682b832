// The server's time, for request signatures: a server checks a signature's timestamp against its
// own clock, which need not be this machine's (a mock whose sandbox clock was advanced, a host
// whose clock drifted). The offset comes from the sandbox clock under --sandbox (to the
// millisecond), and is kept in step with the Date header of every answer: a Date that
// disagrees by more than its one-second resolution moves it (the server's clock was advanced
// during the run, or there is no sandbox to ask).

export interface ClockReading {
  /** Server time minus this machine's time, in milliseconds. */
  offsetMs: number;
  /** Where the offset was last taken from, for the report. */
  source: string;
}

/** A Date header has whole seconds; more disagreement than this is a real difference. */
const dateTolerance = 1_500;

export class ServerClock {
  private reading: ClockReading = { offsetMs: 0, source: "this machine's clock (the server sent no time yet)" };
  /** Whether the reading came from the server yet (the first Date is taken even when it agrees). */
  private fromServer = false;

  /** Milliseconds since the epoch on the server's clock, as this run believes it. */
  now(): number {
    return Date.now() + this.reading.offsetMs;
  }

  get current(): ClockReading {
    return this.reading;
  }

  /** The sandbox clock's time, read at `receivedAtMs` on this machine. */
  setFromSandbox(serverNow: string, receivedAtMs: number): void {
    this.reading = { offsetMs: Date.parse(serverNow) - receivedAtMs, source: 'the sandbox clock (GET /__mock/clock)' };
    this.fromServer = true;
  }

  /** An answer's Date header, received at `receivedAtMs`. */
  observe(headers: Headers, url: URL, receivedAtMs: number): void {
    const date = Date.parse(headers.get('date') ?? '');
    if (Number.isNaN(date)) return;
    // The server's time at the answer lay within the Date's second: take its middle.
    const offsetMs = date + 500 - receivedAtMs;
    if (this.fromServer && Math.abs(offsetMs - this.reading.offsetMs) <= dateTolerance) return;
    this.reading = { offsetMs, source: `the Date header of ${url.pathname}` };
    this.fromServer = true;
  }
}

/** `+3600.0 s` / `-2.5 s`: how far the server's clock is from this machine's. */
export function describeOffset(offsetMs: number): string {
  return `${offsetMs >= 0 ? '+' : '-'}${(Math.abs(offsetMs) / 1000).toFixed(1)} s`;
}
