// The journal audit (EXCHANGE_API_KIT_JOURNAL_AUDIT=1, or startMockServer's `journalAudit`): a
// flush writes only the records the services marked, so a change a service forgot to mark would
// be lost by a restart without anyone noticing. The audit keeps its own copy of what the journal
// holds, applies every write to it, and compares the result with a whole encoding of the sandbox
// (what the journal must hold); any difference is logged loudly and thrown, so the answer that
// would have been acknowledged is not sent. It encodes every record on each flush: for tests.
import type { JournalContents, JournalWrite } from '../store/record-journal.js';
import { keepsRowOrder, type EncodedDomainState } from './journal-rows.js';

export class JournalAuditFailure extends Error {}

export class JournalAudit {
  /** What the journal holds by the writes seen so far: `kind id` → text, in row order. */
  private rows = new Map<string, string>();
  private headers = new Map<string, string>();
  /** Every divergence found, oldest first (tests read it). */
  readonly failures: string[] = [];

  /**
   * Starts from what a journal holds (a restart, which writes nothing back: without this the
   * copy would start empty, and the first write would find every record it did not carry missing).
   */
  startFrom(contents: JournalContents): void {
    this.headers = new Map(contents.headers);
    this.rows = new Map();
    for (const { kind, id, doc } of contents.rows) this.rows.set(`${kind} ${id}`, doc);
  }

  /** Applies `write` (null: nothing written) and throws JournalAuditFailure when the journal no longer matches `whole()`. */
  check(write: JournalWrite | null, whole: () => EncodedDomainState): void {
    if (write !== null) this.apply(write);
    const expected = whole();
    const rows = new Map(expected.rows.map((row) => [`${row.kind} ${row.id}`, row.doc]));
    const problems = [...differences('row', this.rows, rows), ...differences('header', this.headers, expected.headers)];
    // Records come back in row order: each kind's rows must be in the order of its list.
    for (const kind of new Set(expected.rows.map((row) => row.kind).filter(keepsRowOrder))) {
      const order = (map: Map<string, string>) => [...map.keys()].filter((key) => key.startsWith(`${kind} `)).join('\n');
      if (problems.length === 0 && order(this.rows) !== order(rows)) problems.push(`the ${kind} rows are not in the order of their list`);
    }
    if (problems.length === 0) return;
    // Start again from the truth, so one miss is reported once.
    this.rows = rows;
    this.headers = new Map(expected.headers);
    const message = `journal audit: the marked write leaves the journal unlike the sandbox (a change not marked?):\n  ${problems.join('\n  ')}`;
    this.failures.push(message);
    console.error(message);
    throw new JournalAuditFailure(message);
  }

  private apply(write: JournalWrite): void {
    if (write.whole) {
      this.rows.clear();
      this.headers.clear();
    }
    for (const { kind, id } of write.deletes) this.rows.delete(`${kind} ${id}`);
    // A new row goes last, a changed one keeps its place: as the journal's upsert does.
    for (const { kind, id, doc } of write.upserts) this.rows.set(`${kind} ${id}`, doc);
    for (const [name, doc] of write.headers) this.headers.set(name, doc);
  }
}

function differences(what: string, held: ReadonlyMap<string, string>, expected: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const [key, doc] of expected) {
    const kept = held.get(key);
    if (kept === undefined) problems.push(`${what} ${key} is missing`);
    else if (kept !== doc) problems.push(`${what} ${key} is stale: kept ${kept.slice(0, 300)}, is ${doc.slice(0, 300)}`);
  }
  for (const key of held.keys()) if (!expected.has(key)) problems.push(`${what} ${key} should be gone`);
  return problems;
}
