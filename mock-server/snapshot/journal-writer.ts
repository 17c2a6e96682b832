// Keeps a durable store's journal of the domains' records up to date. A flush (before an answer
// leaves, after a timer beat or a clock advance) writes the records the domain services marked
// since the last one (domain/record-marks.ts), each encoded alone with the snapshot's converter of
// its list, and the header rows whose text changed; all in one transaction. Its cost follows what
// changed, not the sandbox's size. The header rows (the seed, random streams, id counters,
// settings) are encoded and compared only when something may have changed them: a record was
// marked (an id or a draw comes with one), the main random stream moved, a request that is not
// a read was answered (headersMayChange(), app.ts), or the timer beat's flush (flushDeferred)
// runs; a request that changed nothing encodes nothing and writes nothing. The audit, on every
// flush, catches a header changed otherwise. The store's cells changed in memory since the last
// write (a spent nonce, a rate window: store/held-cells.ts) go in the same transaction, so an
// answer's cells are committed with its records. What may wait (a key's last_used_at) is written
// by the timer beat's flush and at close, with the audit on by every flush.
//
// A rewrite (start on a new file, reset, load) encodes and writes everything. The memory engine
// builds no writer and its services mark nothing, so it pays nothing. Writes are asynchronous
// (PostgreSQL); journal-queue.ts runs them one at a time. What a write covers is taken when it
// starts, so records changed while it commits are left for the next one.
import type { Sandbox, SandboxJournal } from '../sandbox.js';
import type { MarkedRecord, MarkedRecords } from '../domain/marked-records.js';
import type { CellWrites, JournalRow, JournalWrite, RecordJournal } from '../store/record-journal.js';
import type { JournalAudit } from './journal-audit.js';
import { encodeDomainState, encodeRecord } from './journal-rows.js';
import { exportDomainState } from './sandbox-state.js';

export class JournalWriter implements SandboxJournal {
  /** The header rows as last written: header name → its text. */
  private headers = new Map<string, string>();
  /** A rewrite failed: the journal still holds the sandbox before it, which no mark describes. */
  private rewriteOwed = false;
  /** The next write encodes the headers (see the top of the file). */
  private headersTouched = true;
  /** The main random stream's position when the headers were last encoded. */
  private randomAt: number | undefined;

  constructor(
    private readonly journal: RecordJournal,
    private readonly sandbox: Sandbox,
    private readonly marked: MarkedRecords,
    /** Checks every write against a whole encoding (EXCHANGE_API_KIT_JOURNAL_AUDIT); null: none. */
    private readonly audit: JournalAudit | null = null,
  ) {}

  flush(): Promise<void> {
    return this.rewriteOwed ? this.rewrite() : this.write(this.audit !== null);
  }

  flushDeferred(): Promise<void> {
    this.headersTouched = true;
    return this.rewriteOwed ? this.rewrite() : this.write(true);
  }

  headersMayChange(): void {
    this.headersTouched = true;
  }

  rewrite(): Promise<void> {
    this.marked.take(true);
    const encoded = encodeDomainState(exportDomainState(this.sandbox));
    this.headersTouched = false;
    this.randomAt = this.sandbox.random.state();
    const change = { whole: true, headers: encoded.headers, upserts: encoded.rows, deletes: [], cells: this.journal.cellChanges.take() };
    this.audit?.check(change, () => encoded);
    return this.commit(change, [], encoded.headers);
  }

  private write(withLater: boolean): Promise<void> {
    const marked = this.marked.take(withLater);
    const encodedHeaders = this.headersMayHaveChanged(marked.length > 0) ? encodeDomainState(exportDomainState(this.sandbox, false)).headers : this.headers;
    // Headers not encoded again are the ones written: nothing to compare (most flushes).
    const headers = encodedHeaders === this.headers ? new Map<string, string>() : new Map([...encodedHeaders].filter(([name, doc]) => this.headers.get(name) !== doc));
    const upserts: JournalRow[] = [];
    const deletes: JournalWrite['deletes'][number][] = [];
    for (const { kind, id } of marked) {
      const row = encodeRecord(this.sandbox, kind, id);
      if (row === undefined) deletes.push({ kind, id });
      else upserts.push(row);
    }
    const cells = this.journal.cellChanges.take();
    const unchanged = upserts.length === 0 && deletes.length === 0 && headers.size === 0 && !cells.cleared && cells.rows.length === 0;
    const change = unchanged ? null : { whole: false, headers, upserts, deletes, cells };
    // Checked against the sandbox as it stands now, before other requests change it during the write.
    this.audit?.check(change, () => encodeDomainState(exportDomainState(this.sandbox)));
    return change === null ? Promise.resolve() : this.commit(change, marked, encodedHeaders);
  }

  /** Whether to encode the headers now; true takes the touch (a failed write gives it back). */
  private headersMayHaveChanged(recordsMarked: boolean): boolean {
    const randomAt = this.sandbox.random.state();
    if (!this.headersTouched && !recordsMarked && randomAt === this.randomAt) return false;
    this.headersTouched = false;
    this.randomAt = randomAt;
    return true;
  }

  /**
   * Writes `change`; the headers are remembered as written once they are. A write that fails
   * gives its marks and cells back, so the next flush writes those records and cells (and the
   * headers) again: the answer waiting for it is not sent, but what the request changed is in memory.
   */
  private async commit(change: JournalWrite & { cells: CellWrites }, marked: readonly MarkedRecord[], headers: Map<string, string>): Promise<void> {
    try {
      await this.journal.write(change);
    } catch (error) {
      for (const { kind, id } of marked) this.marked.changed(kind, id);
      this.journal.cellChanges.giveBack(change.cells);
      this.headersTouched = true;
      if (change.whole) this.rewriteOwed = true;
      throw error;
    }
    if (change.whole) this.rewriteOwed = false;
    this.headers = headers;
  }
}
