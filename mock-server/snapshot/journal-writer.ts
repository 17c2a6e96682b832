// Keeps a durable store's journal of the domains' records up to date: on every flush (before an
// answer leaves, after a timer beat or a clock advance) the domains' state is encoded with the
// snapshot's converters and only the rows whose text changed since the last write are written,
// with the rows of records gone deleted, all in one transaction.
//
// Finding the changes by comparing encodings costs an encoding of every record per flush; the
// memory engine never builds a writer, so it pays nothing.
import type { SandboxJournal } from '../sandbox.js';
import type { JournalRow, RecordJournal } from '../store/record-journal.js';
import { encodeDomainState } from './journal-rows.js';
import type { SandboxDomainState } from './sandbox-state.js';

export class JournalWriter implements SandboxJournal {
  /** What the journal holds: a row's `kind id`, or a header's name, → its text. */
  private rows = new Map<string, JournalRow>();
  private headers = new Map<string, string>();

  constructor(
    private readonly journal: RecordJournal,
    private readonly read: () => SandboxDomainState,
  ) {}

  flush(): Promise<void> {
    return this.write(false);
  }

  rewrite(): Promise<void> {
    return this.write(true);
  }

  private async write(whole: boolean): Promise<void> {
    const encoded = encodeDomainState(this.read());
    const rows = new Map(encoded.rows.map((row) => [`${row.kind} ${row.id}`, row]));
    const previousRows = whole ? new Map<string, JournalRow>() : this.rows;
    const previousHeaders = whole ? new Map<string, string>() : this.headers;
    const upserts = [...rows].filter(([key, row]) => previousRows.get(key)?.doc !== row.doc).map(([, row]) => row);
    const deletes = [...previousRows].filter(([key]) => !rows.has(key)).map(([, { kind, id }]) => ({ kind, id }));
    const headers = new Map([...encoded.headers].filter(([name, doc]) => previousHeaders.get(name) !== doc));
    if (!whole && upserts.length === 0 && deletes.length === 0 && headers.size === 0) return;
    await this.journal.write({ whole, headers, upserts, deletes });
    this.rows = rows;
    this.headers = encoded.headers;
  }
}
