// The memory engine's deposits (store/deposit-store.ts): every record in the process, indexed as
// the service finds them: by uuid and per partition in the lists' order (a ListableCollection),
// by site and order id, by destination, and the due ones in a DueQueue.
import { DueQueue } from '../due-queue.js';
import { BY_SITE, BY_STATIC_ADDRESS, destinationKey, type DepositFields, type DepositStore } from '../deposit-store.js';
import { filterPredicate, ListableCollection, listRecords, match, type ListScope } from '../list-records.js';
import type { ListFamily, ListRequest } from '../list-query.js';
import type { OrderedShardedMap } from '../ordered-sharded-map.js';
import { key, type ListKeys } from '../sort-keys.js';
import { ShardedMap } from '../sharded-map.js';

export class MemoryDepositStore<R> implements DepositStore<R> {
  /** Newest first (createdAt, then uuid, descending) per site and per static address: the v1 lists' order. */
  readonly collection: ListableCollection<R>;
  /** Deposits by the instant their next time-driven transition falls due (tests read its metrics). */
  readonly timers: DueQueue<R>;
  /** Site id → order id → its deposits (one is kept bare, several in an array). */
  private readonly byOrder = new Map<number, ShardedMap<string, R | R[]>>();
  /** Each invoice deposit's destination (destinationKey) → the deposit. */
  private readonly destinations = new ShardedMap<string, R>();

  constructor(private readonly fields: DepositFields<R>) {
    this.collection = new ListableCollection<R>({
      id: key.string(fields.uuid),
      fields: { createdAt: key.number(fields.createdAtMs) },
      fixedFields: ['createdAt'],
      defaultSort: [{ field: 'createdAt', direction: 'desc' }],
      partitions: { [BY_SITE]: fields.siteId, [BY_STATIC_ADDRESS]: fields.staticAddressUuid },
    });
    this.timers = new DueQueue<R>({ dueAt: fields.dueAt, creationOrder: (a, b) => fields.seq(a) - fields.seq(b) });
  }

  get(uuid: string): R | undefined {
    return this.collection.get(uuid);
  }

  ofOrder(siteId: number, orderId: string): readonly R[] {
    const found = this.byOrder.get(siteId)?.get(orderId);
    return found === undefined ? [] : Array.isArray(found) ? found : [found];
  }

  atDestination(network: string, address: string, memo: string | null): R | undefined {
    return this.destinations.get(destinationKey(network, address, memo));
  }

  get keys(): ListKeys {
    return this.collection.keys;
  }

  list<F extends ListFamily>(request: ListRequest<F>, scope: ListScope) {
    const filter = filterPredicate<R>(request.filters, { status: match.oneOf(this.fields.status) });
    return listRecords(this.collection, request, filter, scope);
  }

  newest(offset: number, limit: number, keep?: (record: R) => boolean): { items: R[]; total: number } {
    return this.collection.index([{ field: 'createdAt', direction: 'desc' }]).page(offset, limit, keep);
  }

  count(scope: ListScope): number {
    return this.collection.index([{ field: 'createdAt', direction: 'desc' }], scope).size;
  }

  takeDue(nowMs: number): R[] {
    return this.timers.takeDue(nowMs);
  }

  values(): Iterable<R> {
    return this.collection.values();
  }

  insert(record: R): void {
    this.collection.upsert(record);
    this.index(record);
    this.timers.schedule(record);
  }

  schedule(record: R): void {
    this.timers.schedule(record);
  }

  changed(): void {
    // The records are the store's own objects: nothing to write.
  }

  load(records: OrderedShardedMap<string, R>): void {
    this.byOrder.clear();
    this.destinations.clear();
    this.timers.clear();
    for (const record of records.values()) this.index(record);
    this.collection.load(records);
    for (const record of records.values()) this.timers.schedule(record);
  }

  private index(record: R): void {
    const { fields } = this;
    let orders = this.byOrder.get(fields.siteId(record));
    if (orders === undefined) {
      orders = new ShardedMap();
      this.byOrder.set(fields.siteId(record), orders);
    }
    const orderId = fields.orderId(record);
    const existing = orders.get(orderId);
    orders.set(orderId, existing === undefined ? record : Array.isArray(existing) ? [...existing, record] : [existing, record]);
    if (fields.staticAddressUuid(record) === null) this.destinations.set(destinationKey(fields.network(record), fields.address(record), fields.memo(record)), record);
  }
}
