// The sqlite: engine's deposits (store/deposit-store.ts): they stay in the journal's rows
// (journal_records, kind 'deposit', written by the journal as every record is) and are read when
// asked for, through indexes over the fields they are found and ordered by (migration 5 in
// schema.ts). A restart reads none of them: the first request to one reads it.
//
// The rows are the journal's, which is written when a flush commits, after the service changed
// its objects; so the records this process created or changed ("hot") are kept in memory as the
// memory engine keeps them (a MemoryDepositStore) and win over their rows: a read merges the hot
// records with the rows no hot record stands for. The rows this process did not create are those
// up to `lastRowid`, the table's last rowid when the store took the file's deposits up; any later
// row is a hot record's. A row read and not changed is shared through an identity map of weak
// references (the service mutates the records it is given: two reads give one object).
//
// A generation begun in this process (a new file, a reset, a load) keeps every deposit hot, as
// the memory engine does: only a restart leaves deposits on the file (resume), and only then are
// rows read. A whole write of the journal (which numbers the rows anew) takes the file's rows up
// again (attach).
import type { Database, Statement } from 'better-sqlite3';
import type { SandboxStateDeposit } from '../../../generated/sandbox-control/types.js';
import type { ListScope } from '../list-records.js';
import { BY_SITE, BY_STATIC_ADDRESS, type DepositDecoder, type DepositFields, type LazyDepositStore } from '../deposit-store.js';
import { listMeta, encodeCursor, type ListFamily, type ListRequest } from '../list-query.js';
import type { KeysetPosition } from '../keyset-index.js';
import { MemoryDepositStore } from '../memory/memory-deposits.js';
import type { OrderedShardedMap } from '../ordered-sharded-map.js';
import type { ListKeys } from '../sort-keys.js';

/** A deposit's row: its rowid (its creation order), uuid and document. */
type Row = [rowid: number, id: string, doc: string];

/** The document field a partition is keyed by. */
const partitionField: Readonly<Record<string, keyof SandboxStateDeposit>> = { [BY_SITE]: 'siteId', [BY_STATIC_ADDRESS]: 'staticAddressUuid' };

/**
 * A field of a deposit's row document (its snapshot form), as migration 5's indexes spell it:
 * SQLite uses an expression index only for the same expression.
 */
const field = (name: keyof SandboxStateDeposit) => `json_extract(doc, '$.${name}')`;

export class SqliteDepositStore<R extends object> implements LazyDepositStore<R> {
  private hot: MemoryDepositStore<R>;
  /** The rows up to this rowid are the file's when taken up; null while detached (everything hot). */
  private lastRowid: number | null = null;
  private decode: DepositDecoder<R> | null = null;
  /** The records created since the store attached, in creation order (rows past lastRowid). */
  private fresh: R[] = [];
  private readonly freshSet = new WeakSet<R>();
  /** Per partition key (`partition key`): the records created since attaching. */
  private readonly freshCounts = new Map<string, number>();
  /** Per partition key: its rows up to lastRowid (counted once). */
  private readonly fileCounts = new Map<string, number>();
  private readonly cache = new Map<string, WeakRef<R>>();
  private readonly collected = new FinalizationRegistry<string>((uuid) => {
    if (this.cache.get(uuid)?.deref() === undefined) this.cache.delete(uuid);
  });
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly fields: DepositFields<R>,
  ) {
    this.hot = new MemoryDepositStore(fields);
  }

  resume(decode: DepositDecoder<R>): { credited: R[]; nextSeq: number } {
    this.decode = decode;
    this.attach();
    return { credited: this.credited(), nextSeq: this.lastRowid! + 1 };
  }

  /**
   * Takes up the deposits the file holds, which are this generation's (a restart, or a whole
   * write just committed, which numbered the rows anew): once resumed, they are read when asked for.
   */
  attach(): void {
    this.lastRowid = (this.statement('SELECT coalesce(max(rowid), 0) FROM journal_records').pluck().get() as number) ?? 0;
    this.fresh = [];
    this.freshCounts.clear();
    this.fileCounts.clear();
  }

  /**
   * Whether the store reads the file's deposits: it resumed them (a restart) and is attached. A
   * generation that began in this process (a new file, a reset, a load) has every deposit hot: it
   * never reads a row (the rows of its new deposits would only be skipped).
   */
  private get readsFile(): boolean {
    return this.decode !== null && this.lastRowid !== null;
  }

  /** The deposits with a transaction credited, kept hot from now on (their transactions are the chain's, all in memory). */
  private credited(): R[] {
    const rows = this.rows(`SELECT rowid, id, doc FROM journal_records WHERE kind = 'deposit' AND ${field('transactionHashes')} <> '[]' ORDER BY rowid`);
    return rows.map((row) => {
      const record = this.resolve(row);
      this.touch(record);
      return record;
    });
  }

  withMemo(assets: readonly string[]): R | undefined {
    if (!this.readsFile) return undefined;
    // One asset at a time: each is a search of the memo index (a list of them would scan the deposits).
    for (const asset of assets) {
      const [row] = this.rows(`SELECT rowid, id, doc FROM journal_records WHERE kind = 'deposit' AND ${field('memo')} IS NOT NULL AND ${field('asset')} = ? LIMIT 1`, asset);
      if (row !== undefined) return this.resolve(row);
    }
    return undefined;
  }

  get(uuid: string): R | undefined {
    const hot = this.hot.get(uuid) ?? this.cache.get(uuid)?.deref();
    if (hot !== undefined || !this.readsFile) return hot;
    const [row] = this.rows("SELECT rowid, id, doc FROM journal_records WHERE kind = 'deposit' AND id = ?", uuid);
    return row === undefined ? undefined : this.resolve(row);
  }

  ofOrder(siteId: number, orderId: string): readonly R[] {
    const hot = this.hot.ofOrder(siteId, orderId);
    if (!this.readsFile) return hot;
    const rows = this.rows(`SELECT rowid, id, doc FROM journal_records WHERE kind = 'deposit' AND ${field('siteId')} = ? AND ${field('orderId')} = ?`, siteId, orderId);
    const cold = rows.filter(([, id]) => this.hot.get(id) === undefined).map((row) => this.resolve(row));
    return cold.length === 0 ? hot : [...hot, ...cold];
  }

  atDestination(network: string, address: string, memo: string | null): R | undefined {
    const hot = this.hot.atDestination(network, address, memo);
    if (hot !== undefined || !this.readsFile) return hot;
    const { fields } = this;
    const rows = this.rows(`SELECT rowid, id, doc FROM journal_records WHERE kind = 'deposit' AND ${field('address')} = ? AND ${field('memo')} IS ?`, address, memo);
    return rows.map((row) => this.resolve(row)).find((record) => fields.staticAddressUuid(record) === null && fields.network(record) === network);
  }

  get keys(): ListKeys {
    return this.hot.keys;
  }

  list<F extends ListFamily>(request: ListRequest<F>, scope: ListScope) {
    if (!this.readsFile) return this.hot.list(request, scope);
    const statuses = statusesOf(request.filters);
    if (request.mode === 'page') {
      const offset = (request.page - 1) * request.perPage;
      const items = this.merged(scope, null, request.perPage, statuses, offset);
      const total = statuses === null ? this.count(scope) : this.countWith(scope, statuses);
      return { items, meta: listMeta(request, { mode: 'page', itemCount: items.length, total }) };
    }
    const found = this.merged(scope, request.after, request.perPage + 1, statuses);
    const items = found.slice(0, request.perPage);
    const last = items.at(-1);
    const hasMore = found.length > request.perPage;
    const nextCursor = hasMore && last !== undefined ? encodeCursor(request.sort, this.position(last)) : null;
    return { items, meta: listMeta(request, { mode: 'cursor', hasMore, nextCursor }) };
  }

  newest(offset: number, limit: number, keep?: (record: R) => boolean): { items: R[]; total: number } {
    if (!this.readsFile) return this.hot.newest(offset, limit, keep);
    // The inspector's view of every site's deposits: read in full (it is not an API a client pages through).
    const all = [...this.values()].filter((record) => keep?.(record) ?? true);
    all.sort((a, b) => newerFirst(this.fields, a, b));
    return { items: all.slice(offset, offset + limit), total: all.length };
  }

  count(scope: ListScope): number {
    if (!this.readsFile) return this.hot.count(scope);
    const key = `${scope.partition} ${scope.key}`;
    let counted = this.fileCounts.get(key);
    if (counted === undefined) {
      counted = this.statement(`SELECT count(*) FROM journal_records WHERE kind = 'deposit' AND ${this.partitionTerm(scope)} = ? AND rowid <= ?`)
        .pluck()
        .get(scope.key, this.lastRowid) as number;
      this.fileCounts.set(key, counted);
    }
    return counted + (this.freshCounts.get(key) ?? 0);
  }

  takeDue(nowMs: number): R[] {
    const due = this.hot.takeDue(nowMs);
    if (!this.readsFile) return due;
    // Hot records are the hot queue's; a row's record otherwise falls due at its expiry (the records with a transaction are all hot).
    // One status at a time: each is a range of the expiry index.
    const rows = this.fields.expiringStatuses.flatMap((status) =>
      this.rows(
        `SELECT rowid, id, doc FROM journal_records WHERE kind = 'deposit' AND ${field('status')} = ? AND ${field('expiresAtMs')} <= ? AND rowid <= ?`,
        status,
        nowMs,
        this.lastRowid,
      ),
    );
    const cold = rows.filter(([, id]) => this.hot.get(id) === undefined).map((row) => this.resolve(row));
    if (cold.length === 0) return due;
    const { seq } = this.fields;
    return [...due, ...cold].sort((a, b) => seq(a) - seq(b));
  }

  *values(): Iterable<R> {
    if (!this.readsFile) {
      yield* this.hot.values();
      return;
    }
    const rows = this.statement("SELECT rowid, id, doc FROM journal_records WHERE kind = 'deposit' AND rowid <= ? ORDER BY rowid").raw().all(this.lastRowid) as Row[];
    // Not remembered: a snapshot reads every row once.
    for (const [rowid, id, doc] of rows) yield this.hot.get(id) ?? this.cache.get(id)?.deref() ?? this.decode!(doc, rowid);
    yield* this.fresh;
  }

  insert(record: R): void {
    this.hot.insert(record);
    if (!this.readsFile) return;
    this.fresh.push(record);
    this.freshSet.add(record);
    const { fields } = this;
    this.countFresh(`${BY_SITE} ${fields.siteId(record)}`);
    const staticAddress = fields.staticAddressUuid(record);
    if (staticAddress !== null) this.countFresh(`${BY_STATIC_ADDRESS} ${staticAddress}`);
  }

  schedule(record: R): void {
    this.touch(record);
    this.hot.schedule(record);
  }

  changed(record: R): void {
    this.touch(record);
  }

  /** A snapshot's records (a load): all hot, the store detached until the journal's whole write holds them. */
  load(records: OrderedShardedMap<string, R>): void {
    this.lastRowid = null;
    this.decode = null;
    this.cache.clear();
    this.hot = new MemoryDepositStore(this.fields);
    this.hot.load(records);
  }

  /** A record read from a row and changed now becomes hot: its row is stale until the journal's next write. */
  private touch(record: R): void {
    const uuid = this.fields.uuid(record);
    if (this.hot.get(uuid) === undefined) this.hot.insert(record);
  }

  private countFresh(key: string): void {
    this.freshCounts.set(key, (this.freshCounts.get(key) ?? 0) + 1);
  }

  /**
   * `limit` records of the scope after `after` (newest first) once `skip` are passed, matching
   * `statuses` (null: any): the hot ones and the rows no hot record stands for, merged.
   */
  private merged(scope: ListScope, after: KeysetPosition | null, limit: number, statuses: readonly string[] | null, skip = 0): R[] {
    const { fields } = this;
    const filter = statuses === null ? undefined : (record: R) => statuses.includes(fields.status(record));
    const hotIndex = this.hot.collection.index([{ field: 'createdAt', direction: 'desc' }], scope);
    const sql =
      `SELECT rowid, id, doc FROM journal_records WHERE kind = 'deposit' AND ${this.partitionTerm(scope)} = ? AND rowid <= ?` +
      // (createdAt, uuid) < the position, spelled so that the index's range starts at it.
      ` AND ${field('createdAtMs')} <= ? AND (${field('createdAtMs')} < ? OR id < ?)` +
      (statuses === null ? '' : ` AND ${field('status')} IN (SELECT value FROM json_each(?))`) +
      ` ORDER BY ${field('createdAtMs')} DESC, id DESC LIMIT ? OFFSET ?`;
    const argsFrom = (position: KeysetPosition | null, count: number, offset: number): unknown[] => {
      // From the first record: past any instant and any uuid.
      const at = position?.values[0] ?? Number.MAX_SAFE_INTEGER;
      return [scope.key, this.lastRowid, at, at, position?.id ?? '\u{10FFFF}', ...(statuses === null ? [] : [JSON.stringify(statuses)]), count, offset];
    };
    // No hot record in the scope: the rows are the list, and the database skips the offset.
    if (hotIndex.size === 0) return this.rows(sql, ...argsFrom(after, limit, skip)).map((row) => this.resolve(row));
    limit += skip;
    const hot = hotIndex.after(after, limit, filter).items;
    const cold: R[] = [];
    let position = after;
    // Rows whose record is hot are skipped (the hot record stands for them): read on until enough are not.
    while (cold.length < limit) {
      const batch = limit - cold.length + 8;
      const rows = this.rows(sql, ...argsFrom(position, batch, 0));
      for (const row of rows) if (this.hot.get(row[1]) === undefined && cold.length < limit) cold.push(this.resolve(row));
      if (rows.length < batch) break;
      position = this.position(this.resolve(rows.at(-1)!));
    }
    // Both newest first: merge them (createdAt, then uuid, descending).
    const out: R[] = [];
    let h = 0;
    let c = 0;
    while (out.length < limit && (h < hot.length || c < cold.length)) {
      const a = hot[h];
      const b = cold[c];
      if (b === undefined || (a !== undefined && newerFirst(fields, a, b) <= 0)) out.push(hot[h++]!);
      else out.push(cold[c++]!);
    }
    return out.slice(skip);
  }

  /** The scope's records with one of `statuses`: its rows that no hot record stands for, and its hot records. */
  private countWith(scope: ListScope, statuses: readonly string[]): number {
    const { fields } = this;
    const hot = [...this.hot.collection.index([{ field: 'createdAt', direction: 'desc' }], scope).values()];
    const standIns = hot.filter((record) => !this.freshSet.has(record)).map((record) => fields.uuid(record));
    const rows = this.statement(
      `SELECT count(*) FROM journal_records WHERE kind = 'deposit' AND ${this.partitionTerm(scope)} = ? AND rowid <= ?` +
        ` AND ${field('status')} IN (SELECT value FROM json_each(?)) AND id NOT IN (SELECT value FROM json_each(?))`,
    )
      .pluck()
      .get(scope.key, this.lastRowid, JSON.stringify(statuses), JSON.stringify(standIns)) as number;
    return rows + hot.filter((record) => statuses.includes(fields.status(record))).length;
  }

  private position(record: R): KeysetPosition {
    const { fields } = this;
    return { values: [fields.createdAtMs(record)], id: fields.uuid(record) };
  }

  private partitionTerm(scope: ListScope): string {
    const name = partitionField[scope.partition];
    if (name === undefined) throw new Error(`SqliteDepositStore: no partition ${scope.partition}`);
    return field(name);
  }

  /** The record of a row: the hot one, the one already handed out, or the row read now (and remembered weakly). */
  private resolve([rowid, id, doc]: Row): R {
    const known = this.hot.get(id) ?? this.cache.get(id)?.deref();
    if (known !== undefined) return known;
    if (this.decode === null) throw new Error(`SqliteDepositStore: deposit ${id} is neither hot nor of a resumed file`);
    const record = this.decode(doc, rowid);
    this.cache.set(id, new WeakRef(record));
    this.collected.register(record, id);
    return record;
  }

  private rows(sql: string, ...args: unknown[]): Row[] {
    return this.statement(sql).raw().all(...args) as Row[];
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** The list's status filter: one status or several; null when not set. */
function statusesOf(filters: Readonly<Record<string, unknown>>): readonly string[] | null {
  for (const [name, value] of Object.entries(filters)) {
    if (value !== undefined && name !== 'status') throw new Error(`SqliteDepositStore: no filter ${name}`);
  }
  const status = filters['status'];
  if (status === undefined) return null;
  return Array.isArray(status) ? (status as string[]) : [status as string];
}

/** Negative when `a` comes first in the lists' order (createdAt, then uuid, descending). */
function newerFirst<R>(fields: DepositFields<R>, a: R, b: R): number {
  const byTime = fields.createdAtMs(b) - fields.createdAtMs(a);
  if (byTime !== 0) return byTime;
  const [x, y] = [fields.uuid(a), fields.uuid(b)];
  return x === y ? 0 : x > y ? -1 : 1;
}
