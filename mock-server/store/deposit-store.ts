// Where a sandbox's v1 deposits live (a part of the storage port). The deposit service
// (domain/deposits/deposit-service.ts) asks for them by what it finds them by (a uuid, a site's
// order id, a payment destination), a page of a list, the ones whose time-driven transition falls
// due, and reports each one it creates or changes. It mutates the records it is given in place,
// so an engine hands out one object per record (an identity map) while anyone may hold it.
// Synchronous: the service is, and so are the engines that keep them (memory, better-sqlite3).
//
// The port knows no domain type: the service says how a record's fields are read (DepositFields).
import type { ListedPage, ListScope } from './list-records.js';
import type { ListFamily, ListRequest } from './list-query.js';
import type { OrderedShardedMap } from './ordered-sharded-map.js';
import type { ListKeys } from './sort-keys.js';

/** The partitions a deposit list is scoped to: a site's history, a static address's payments. */
export const BY_SITE = 'site';
export const BY_STATIC_ADDRESS = 'staticAddress';

/** How the store reads a record's fields (all but `status` and `dueAt` never change). */
export interface DepositFields<R> {
  uuid: (record: R) => string;
  siteId: (record: R) => number;
  orderId: (record: R) => string;
  /** The static address it is a payment to; null for an invoice deposit (the owner of its destination). */
  staticAddressUuid: (record: R) => string | null;
  network: (record: R) => string;
  address: (record: R) => string;
  memo: (record: R) => string | null;
  createdAtMs: (record: R) => number;
  status: (record: R) => string;
  /** Creation order (the order deposits due at one instant are settled in). */
  seq: (record: R) => number;
  /** Epoch ms at which its next time-driven transition falls due; null when none is pending. */
  dueAt: (record: R) => number | null;
  /**
   * The statuses in which a deposit with nothing credited falls due at its `expiresAtMs` (the
   * machine's expire transition): what a store that has not read a record knows of its due instant.
   */
  expiringStatuses: readonly string[];
}

export interface DepositStore<R> {
  get(uuid: string): R | undefined;
  /** The site's deposits with this order id (other assets, static-address payments), any order. */
  ofOrder(siteId: number, orderId: string): readonly R[];
  /** The invoice deposit receiving at this destination (the address, and the memo on memo networks). */
  atDestination(network: string, address: string, memo: string | null): R | undefined;
  /**
   * One page of a scope's deposits (BY_SITE / BY_STATIC_ADDRESS), newest first (createdAt then
   * uuid, descending), filtered by `request.filters.status` (one status or a list) when set.
   */
  list<F extends ListFamily>(request: ListRequest<F>, scope: ListScope): ListedPage<R, F>;
  /** What the lists are keyed by (createdAt, uuid), which a cursor's keys must be. */
  readonly keys: ListKeys;
  /** Every site's deposits newest first (the inspector): `limit` matching `keep` after `offset` matching ones, and how many match. */
  newest(offset: number, limit: number, keep?: (record: R) => boolean): { items: R[]; total: number };
  /** How many deposits the scope holds. */
  count(scope: ListScope): number;
  /** The deposits due by `nowMs` (see DepositFields.dueAt), each once, in creation order. */
  takeDue(nowMs: number): R[];
  /** Every deposit, in creation order (a snapshot). */
  values(): Iterable<R>;
  /** A new deposit (scheduled). */
  insert(record: R): void;
  /** Call after a change that may move the deposit's due instant. */
  schedule(record: R): void;
  /** The deposit changed (its fields are read again when it is next written). */
  changed(record: R): void;
  /** Replaces every deposit with these (a snapshot restored), keyed by uuid in creation order. */
  load(records: OrderedShardedMap<string, R>): void;
}

/** Reads a stored deposit's document (its snapshot form, JSON) into a record; `seq` is its creation order. */
export type DepositDecoder<R> = (doc: string, seq: number) => R;

/**
 * An engine whose deposits outlive the process and are read when asked for (sqlite:): a restart
 * takes them up without reading them.
 */
export interface LazyDepositStore<R> extends DepositStore<R> {
  /**
   * Takes up the deposits the store holds (a restart): from now on each is read when asked for,
   * with `decode`. Returns the ones with a transaction credited (read now: the service keeps
   * them by transaction) and the creation order the next deposit takes.
   */
  resume(decode: DepositDecoder<R>): { credited: R[]; nextSeq: number };
  /** A deposit with a memo, of one of these assets: the memo network's shared address. */
  withMemo(assets: readonly string[]): R | undefined;
}

/** Where a payment lands: the address, or `network memo` on a memo network (the shared address plus the memo). */
export function destinationKey(network: string, address: string, memo: string | null): string {
  return memo === null ? address : `${network} ${memo}`;
}
