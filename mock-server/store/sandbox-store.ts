// The storage port of the sandbox: what every engine (memory, sqlite:PATH) offers. Each operation
// is atomic on its own, so a check-and-set never spans an await in the caller: a rate window, a
// quota, a nonce or an idempotency reservation cannot be spent twice by concurrent or pipelined
// requests, whatever the engine. Records that live for a time expire by that time (swept in small
// batches), never by a count that evicts another tenant's records.
//
import type { ClockSetting } from '../clock.js';
import type { RecordJournal } from './record-journal.js';
import type { WebhookStore } from './webhook-store.js';
import type { DepositFields, LazyDepositStore } from './deposit-store.js';

// The port knows no domain type: a cell's value is plain JSON-safe data whose meaning (a key's
// meter, a used nonce) belongs to the caller, which also supplies the pure rule of an update.

/** What an update keeps and what it answers. */
export interface CellChange<T, R> {
  value: T;
  /** Epoch ms after which the cell is gone (reads see undefined, a sweep removes it). */
  expiresAtMs: number;
  result: R;
}

/** Small keyed records of one kind, each read and changed atomically. */
export interface Cells<T> {
  /** The live value, undefined when absent or expired at `nowMs`. */
  get(key: string, nowMs: number): Promise<T | undefined>;
  /**
   * Reads the live value and stores what `change` returns, as one atomic step: no other update of
   * the cell runs in between, in this process or another sharing the engine. `change` is
   * synchronous and has no effect but its answer (an engine may run it inside a database
   * transaction); it owns `current` and may change it in place and return it.
   */
  update<R>(key: string, nowMs: number, change: (current: T | undefined) => CellChange<T, R>): Promise<R>;
  /** Stores `value` only when no live cell holds the key; true when it stored (one atomic step). */
  claim(key: string, value: T, nowMs: number, expiresAtMs: number): Promise<boolean>;
  /** Every cell live at `nowMs` (a snapshot's export). */
  entries(nowMs: number): Promise<CellEntry<T>[]>;
}

/** A cell as a snapshot holds it. */
export interface CellEntry<T> {
  key: string;
  value: T;
  expiresAtMs: number;
}

/** The kinds of cell the sandbox keeps; each is its own key space. */
export type CellKind = 'key-meters' | 'key-usage' | 'nonces';

/** A response kept for an idempotency key, replayed to repeats of its request. */
export interface StoredResponse {
  fingerprint: string;
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** Whose key (the v3 key or v1 site, as `caller:7`) and the key as sent. */
export interface IdempotencySlot {
  caller: string;
  key: string;
}

export type Reservation =
  /** The slot is the caller's now: run the request, then complete or release it. */
  | { kind: 'reserved' }
  /** A finished request holds the slot. */
  | { kind: 'stored'; response: StoredResponse }
  /** A request with this fingerprint is running (here or in another process) and holds the slot. */
  | { kind: 'pending'; fingerprint: string }
  /** The caller holds its whole bound of live records; the earliest expires at `retryAtMs`. */
  | { kind: 'full'; limit: number; retryAtMs: number };

export interface IdempotencyStore {
  /**
   * Reserves the slot for a request with `fingerprint` until `expiresAtMs`, unless a live record
   * (stored or pending) holds it, or the caller already holds `maxPerCaller` live records.
   * A pending reservation older than `pendingLeaseMs` is taken over (its process died).
   */
  reserve(slot: IdempotencySlot, fingerprint: string, nowMs: number, expiresAtMs: number, limits: { maxPerCaller: number; pendingLeaseMs: number }): Promise<Reservation>;
  /** Keeps the finished request's response in the reserved slot (its expiry unchanged). */
  complete(slot: IdempotencySlot, response: StoredResponse): Promise<void>;
  /** Gives a reserved slot up unstored (the answer is not final: a 5xx, a 429, a lost connection). */
  release(slot: IdempotencySlot): Promise<void>;
  /**
   * Gives up every reservation still pending. Called by a process that has just taken the hold on
   * a durable sandbox, before it answers anything: each pending one is then of a process that
   * died mid-request (or lost its hold), whose retry would otherwise wait out `pendingLeaseMs` on
   * the virtual clock (forever on a frozen one).
   */
  abandonPending(): Promise<void>;
  /** Every finished record live at `nowMs`, a response kept (a snapshot's export: a pending reservation is not). */
  finished(nowMs: number): Promise<FinishedIdempotencyRecord[]>;
  /** Stores a finished record as it was (a snapshot's load, into an emptied store). */
  restore(record: FinishedIdempotencyRecord): Promise<void>;
}

export interface FinishedIdempotencyRecord extends IdempotencySlot {
  reservedAtMs: number;
  expiresAtMs: number;
  response: StoredResponse;
}

export interface ClockSettingStore {
  load(): Promise<ClockSetting | undefined>;
  save(setting: ClockSetting): Promise<void>;
}

export interface SandboxStore {
  /** `memory` or `sqlite`. */
  readonly engine: string;
  /** Where it keeps its data, for messages (`memory`, a file path). */
  readonly location: string;
  cells<T>(kind: CellKind): Cells<T>;
  readonly idempotency: IdempotencyStore;
  readonly clock: ClockSettingStore;
  /** The webhook engine's endpoints, events and deliveries (with their due queue). */
  readonly webhooks: WebhookStore;
  /**
   * The domains' records, on an engine that keeps them across restarts (sqlite:); absent on the
   * memory engine, whose sandbox keeps them in its services only.
   */
  readonly journal?: RecordJournal;
  /**
   * A new generation's deposits, on an engine that keeps them itself (sqlite:, in the journal's
   * rows, read when asked for: a restart reads none); absent: the sandbox keeps them in memory
   * (store/memory/memory-deposits.ts), and a durable engine's journal holds them as any record.
   */
  deposits?<R extends object>(fields: DepositFields<R>): LazyDepositStore<R>;
  /** Removes up to `batch` records expired at `nowMs`; returns how many went. */
  sweepExpired(nowMs: number, batch: number): Promise<number>;
  /** Records that expire by time (cells, idempotency records) held now, expired ones not yet swept included. */
  countExpiring(): Promise<number>;
  /** Wipes every record (the sandbox reset) but the journal's, which the sandbox rewrites whole. */
  clear(): Promise<void>;
  close(): Promise<void>;
}
