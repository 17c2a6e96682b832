// The marks the domain services make (domain/record-marks.ts) on a store with a journal, kept
// until the journal's next flush takes them. A record marked changed and then removed (or the
// other way) is simply marked: the flush encodes it as it then stands, and deletes its row if it
// is gone.
import type { RecordKind, RecordMarks } from '../domain/record-marks.js';

export interface MarkedRecord {
  kind: RecordKind;
  id: string;
}

export class MarkedRecords implements RecordMarks {
  /** By `kind id`, in the order first marked: new rows are appended in the order records were made. */
  private marked = new Map<string, MarkedRecord>();

  changed(kind: RecordKind, id: string): void {
    const key = `${kind} ${id}`;
    if (!this.marked.has(key)) this.marked.set(key, { kind, id });
  }

  removed(kind: RecordKind, id: string): void {
    this.changed(kind, id);
  }

  /** What was marked since the last take, and forgets it. */
  take(): MarkedRecord[] {
    const taken = [...this.marked.values()];
    this.marked = new Map();
    return taken;
  }
}
