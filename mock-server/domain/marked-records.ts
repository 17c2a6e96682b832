// The marks the domain services make (record-marks.ts) on a store with a journal, kept
// until the journal's next flush takes them. A record marked changed and then removed (or the
// other way) is simply marked: the flush encodes it as it then stands, and deletes its row if it
// is gone.
import type { RecordKind, RecordMarks } from './record-marks.js';

export interface MarkedRecord {
  kind: RecordKind;
  id: string;
}

/** Marks by `kind id`, in the order first marked: new rows are appended in the order records were made. */
class MarkSet {
  private marked = new Map<string, MarkedRecord>();

  add(kind: RecordKind, id: string): void {
    const key = `${kind} ${id}`;
    if (!this.marked.has(key)) this.marked.set(key, { kind, id });
  }

  /** What was marked since the last take, and forgets it. */
  take(): MarkedRecord[] {
    const taken = [...this.marked.values()];
    this.marked = new Map();
    return taken;
  }
}

export class MarkedRecords implements RecordMarks {
  private readonly now = new MarkSet();
  private readonly later = new MarkSet();

  changed(kind: RecordKind, id: string): void {
    this.now.add(kind, id);
  }

  removed(kind: RecordKind, id: string): void {
    this.now.add(kind, id);
  }

  changedLater(kind: RecordKind, id: string): void {
    this.later.add(kind, id);
  }

  /** What was marked since the last take, and forgets it; `withLater` includes what may wait for a timer beat. */
  take(withLater: boolean): MarkedRecord[] {
    return withLater ? [...this.now.take(), ...this.later.take()] : this.now.take();
  }
}
