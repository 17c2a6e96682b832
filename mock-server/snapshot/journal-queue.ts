// Runs the sandbox journal's writes one at a time, in the order they were asked for: a flush
// writes what changed since the previous write committed, so two must never overlap, and on
// PostgreSQL a write takes round trips during which answers keep asking for flushes. A flush asked
// while another is still waiting to start joins it: when it starts it finds every change made
// until then, so one transaction covers the answers that waited (a database's group commit). A
// flush starts no sooner than the end of the event loop's turn it was asked in (setImmediate):
// the answers of every request read in that turn (many, under load) share its transaction, at
// the price of one turn's delay, where each would otherwise have paid a commit of its own.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SandboxJournal } from '../sandbox.js';

export class JournalQueue implements SandboxJournal {
  /** Settles when the last write asked for has ended, committed or not. */
  private last: Promise<void> = Promise.resolve();
  /** The flush asked for but not started yet, which later flushes join. */
  private waiting: Promise<void> | null = null;

  constructor(private readonly writer: SandboxJournal) {}

  flush(): Promise<void> {
    this.waiting ??= this.enqueue(async () => {
      await nextTurn();
      this.waiting = null;
      return this.writer.flush();
    });
    return this.waiting;
  }

  flushDeferred(): Promise<void> {
    // What may wait is taken by this write alone: it neither joins nor is joined.
    return this.enqueue(() => this.writer.flushDeferred());
  }

  rewrite(): Promise<void> {
    // A flush asked for after this must come after it, not join one that runs before it.
    this.waiting = null;
    return this.enqueue(() => this.writer.rewrite());
  }

  headersMayChange(): void {
    this.writer.headersMayChange();
  }

  private enqueue(write: () => Promise<void>): Promise<void> {
    const done = this.last.then(write);
    this.last = done.catch(() => undefined);
    return done;
  }
}
