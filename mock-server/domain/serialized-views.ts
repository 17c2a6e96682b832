// Views serialised once and kept while their record stays as it is: a list that clients poll
// sends the same records call after call, and building and serialising their views was the
// largest cost of such an answer after the socket write. The owner drops a record's view when
// the record changes. The map is bounded (the oldest view built goes first) so that a sandbox
// whose clients page through a million records keeps a few hundred views, not a million.
import { SerializedJson } from '../../generated/runtime/serialized-json.js';

export class SerializedViews<Key extends object, View> {
  private readonly kept = new Map<Key, SerializedJson<View>>();

  constructor(
    private readonly capacity: number,
    private readonly build: (record: Key) => View,
  ) {}

  /** The view kept for the record, or the one built now, kept from then on. */
  get(record: Key): SerializedJson<View> {
    let view = this.kept.get(record);
    if (view === undefined) {
      view = new SerializedJson(this.build(record));
      this.kept.set(record, view);
      if (this.kept.size > this.capacity) this.kept.delete(this.kept.keys().next().value!);
    }
    return view;
  }

  /** The record changed: its view is built anew when next asked for. */
  drop(record: Key): void {
    this.kept.delete(record);
  }
}
