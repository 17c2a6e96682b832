// The sandbox's one pool of delivery attempts: at most `size` in flight at once, whatever starts
// them (the real-time ticker, clock advances, run-due, each API call that emits an event, a
// retry). The others wait their turn, first come first served. The pool outlives the webhook
// engine a reset builds anew, so attempts still in flight from before a reset count too.
export const defaultDeliveryConcurrency = 8;

export class DeliveryPool {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size = defaultDeliveryConcurrency) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`the delivery pool needs a size of at least 1, got ${size}`);
  }

  /** Attempts running now. */
  get inFlight(): number {
    return this.active;
  }

  /** Runs `work` once a place is free; the place is given back when it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The place passes straight to the next in line, so `active` never dips below a full pool.
      if (next !== undefined) next();
      else this.active -= 1;
    }
  }
}
