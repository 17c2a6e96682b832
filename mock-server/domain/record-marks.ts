// Where a domain service reports the records it created, changed or deleted, so a durable store's
// journal writes those alone instead of finding the changes by encoding every record
// (mock-server/snapshot/journal-writer.ts). The composition root passes one to each service; the
// memory engine, which keeps no journal, passes noRecordMarks. A change a service does not mark
// is lost by a restart: the journal audit (EXCHANGE_API_KIT_JOURNAL_AUDIT=1) finds such a miss.

/** The journal's kinds of record (mock-server/snapshot/journal-rows.ts lists where each lives). */
export type RecordKind =
  | 'key'
  | 'site'
  | 'quote'
  | 'order'
  | 'review'
  | 'partnerAccount'
  | 'payout'
  | 'deposit'
  | 'transaction'
  | 'staticAddress'
  | 'depositScreening'
  | 'amlCheck'
  | 'upload'
  | 'verification';

export interface RecordMarks {
  /**
   * The record `id` of `kind` was created or changed. The next flush reads the record as it is
   * then, so the call may come just before the change or after it, in the same synchronous step.
   */
  changed(kind: RecordKind, id: string): void;
  /** The record `id` of `kind` is gone. */
  removed(kind: RecordKind, id: string): void;
  /**
   * The record changed in a way that may wait for the next timer beat (200 ms): a usage
   * statistic (a key's last_used_at), which an answer does not acknowledge. A crash may lose up
   * to one beat of them, as of the usage counts, never a record.
   */
  changedLater(kind: RecordKind, id: string): void;
}

/** Marks nothing: for a sandbox without a journal. */
export const noRecordMarks: RecordMarks = { changed: () => undefined, removed: () => undefined, changedLater: () => undefined };
