// A client's webhook log (its events, its deliveries) as a list, for every engine: sorted by
// creation only (the contract's WebhookEventSort and WebhookDeliverySort are `created_at` either
// way; ties by id), filtered on the records' facets (webhook-store.ts).
import { contractDefaultSort } from './list-contract.js';
import { ListableCollection, listRecords, type ListedPage, type ListScope } from './list-records.js';
import type { ListFamily, ListRequest } from './list-query.js';
import { OrderedShardedMap } from './ordered-sharded-map.js';
import { key, type ListKeys } from './sort-keys.js';

const creation = 'created_at';

/** What a database engine reads for every record of a client's log: its id, when it was created, and the facets a list filters by. */
export type LogHead<Facets> = Facets & { id: string; createdAtMs: number };

/** The v3 list operation of each log: its contract's default sort is the order every client's index keeps. */
export type LogList = 'listWebhookEvents' | 'listWebhookDeliveries';

/**
 * A collection of log records; partitioned by client when `byClient` is given (the memory
 * engine's, kept for the sandbox's life: a client's page then reads O(log n + page) of its own
 * records, in the list's default order from the client's first record on).
 */
export function logCollection<R>(
  id: (record: R) => string,
  createdAtMs: (record: R) => number,
  byClient?: { clientOf: (record: R) => string; list: LogList },
): ListableCollection<R> {
  const partitioned = byClient === undefined ? {} : { partitions: { client: byClient.clientOf }, defaultSort: contractDefaultSort('v3', byClient.list) };
  return new ListableCollection<R>({ id: key.string(id), fields: { [creation]: key.number(createdAtMs) }, fixedFields: [creation], ...partitioned });
}

/** What every log list is keyed by, whatever its records: those of a collection of heads (pageOfHeads'). */
export const logKeys: ListKeys = logCollection<LogHead<object>>(
  (head) => head.id,
  (head) => head.createdAtMs,
).keys;

export function clientScope(clientId: string): ListScope {
  return { partition: 'client', key: clientId };
}

/**
 * A page over the heads a database engine read for one client (sorted here with one sort), its
 * records then read whole by id: the page's only.
 */
export async function pageOfHeads<Facets, R, F extends ListFamily>(
  heads: Iterable<LogHead<Facets>>,
  request: ListRequest<F>,
  filter: ((record: Facets) => boolean) | undefined,
  read: (ids: string[]) => Promise<R[]>,
): Promise<ListedPage<R, F>> {
  const collection = logCollection<LogHead<Facets>>(
    (head) => head.id,
    (head) => head.createdAtMs,
  );
  const byId = new OrderedShardedMap<string, LogHead<Facets>>();
  for (const head of heads) byId.set(head.id, head);
  collection.load(byId);
  const page = listRecords(collection, request, filter);
  return { items: await read(page.items.map((head) => head.id)), meta: page.meta };
}

/** Records read by id in any order, put in the order of `ids` (an id not found is left out). */
export function inOrderOf<R>(ids: readonly string[], records: readonly R[], idOf: (record: R) => string): R[] {
  const byId = new Map(records.map((record) => [idOf(record), record]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
