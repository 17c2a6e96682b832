// A check the exchange's services share when they restore records from a snapshot.
import { StateRejected } from '../state-rejected.js';

/** Throws StateRejected at `pointer` unless an id counter's `next` is above every restored record's id (a new record would take an old id). */
export function requireNextIdAbove(next: number, records: Iterable<{ id: number }>, pointer: string): void {
  let last = 0;
  for (const record of records) last = Math.max(last, record.id);
  if (next <= last) throw new StateRejected(pointer, `must be above the last id ${last}`);
}
