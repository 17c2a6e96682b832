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
  /** The record `id` of `kind` was created or changed (a call after the change or before it, in the same request, is fine). */
  changed(kind: RecordKind, id: string): void;
  /** The record `id` of `kind` is gone. */
  removed(kind: RecordKind, id: string): void;
}

/** Marks nothing: for a sandbox without a journal. */
export const noRecordMarks: RecordMarks = { changed: () => undefined, removed: () => undefined };
