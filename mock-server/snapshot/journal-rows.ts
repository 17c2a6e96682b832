// The domains' part of a sandbox document (SandboxDomainState) as a durable store's journal holds
// it: every record of a list as a row of its kind, keyed by its id, and what is left of each part
// (random streams, id counters, settings: the part with its lists emptied) as a header row. The
// rows are encoded with the snapshot's own converters, so the journal and a snapshot cannot drift:
// a whole encoding (a rewrite) from the snapshot's lists, one record (a flush of the records the
// services marked) from the converter each list is mapped with.
import type { RecordKind } from '../domain/record-marks.js';
import type { Sandbox } from '../sandbox.js';
import type { JournalContents, JournalRow, RecordJournal } from '../store/record-journal.js';
import { StateRejected } from '../domain/state-rejected.js';
import { exportKeyRecord, exportSiteRecord } from './accounts-state.js';
import type { SandboxDomainState } from './sandbox-state.js';

type Part = 'accounts' | 'exchange' | 'deposits' | 'files';
type Doc = Record<string, unknown>;

/** What one record is read from. */
type Domains = Pick<Sandbox, 'keys' | 'sites' | 'services'>;

interface RecordList {
  kind: RecordKind;
  part: Part;
  /** Where the list is inside its part. */
  path: readonly string[];
  /** What tells its records apart (the document's own key of the record). */
  idOf: (record: Doc) => string;
  /** The record with this id as the list holds it; undefined when there is none. */
  one: (domains: Domains, id: string) => object | undefined;
  /**
   * True when the list's order is not its rows' (the order records were made in) but derived on
   * export: a restart then lists them in that order whatever order the rows are in.
   */
  derivedOrder?: true;
}

const field =
  (...names: string[]) =>
  (record: Doc): string =>
    names.map((name) => String(record[name])).join(' ');

/** Every list of records in the domains' parts; a list not named here would be lost by a restart. */
const recordLists: readonly RecordList[] = [
  { kind: 'key', part: 'accounts', path: ['keys'], idOf: field('id'), one: (d, id) => exportKeyRecord(d, id) },
  { kind: 'site', part: 'accounts', path: ['sites'], idOf: field('id'), one: (d, id) => exportSiteRecord(d, id) },
  { kind: 'quote', part: 'exchange', path: ['quotes', 'quotes'], idOf: field('id'), one: (d, id) => d.services.quotes.exportRecord(id) },
  { kind: 'order', part: 'exchange', path: ['orders', 'orders'], idOf: field('publicId'), one: (d, id) => d.services.orders.exportRecord(id) },
  { kind: 'review', part: 'exchange', path: ['reviews', 'reviews'], idOf: field('id'), one: (d, id) => d.services.reviews.exportRecord(id) },
  { kind: 'partnerAccount', part: 'exchange', path: ['partners', 'accounts'], idOf: field('clientId'), one: (d, id) => d.services.partners.exportAccount(id) },
  { kind: 'payout', part: 'exchange', path: ['partners', 'payouts'], idOf: field('id'), one: (d, id) => d.services.partners.exportPayout(id) },
  { kind: 'deposit', part: 'deposits', path: ['deposits'], idOf: field('uuid'), one: (d, id) => d.services.deposits.exportRecord(id) },
  { kind: 'transaction', part: 'deposits', path: ['transactions'], idOf: field('hash'), one: (d, id) => d.services.deposits.chain.exportRecord(id) },
  { kind: 'staticAddress', part: 'deposits', path: ['staticAddresses'], idOf: field('uuid'), one: (d, id) => d.services.staticAddresses.exportRecord(id) },
  {
    kind: 'depositScreening',
    part: 'deposits',
    path: ['depositScreenings'],
    idOf: field('depositUuid', 'hash'),
    // In the order of their deposits: a deposit's screening is made when its payment is seen.
    derivedOrder: true,
    one: (d, id) => {
      const [uuid = '', hash = ''] = id.split(' ');
      return d.services.depositAml.exportRecord(d.services.deposits.records.get(uuid), hash);
    },
  },
  { kind: 'amlCheck', part: 'deposits', path: ['amlChecks'], idOf: field('uuid'), one: (d, id) => d.services.aml.exportRecord(id) },
  { kind: 'upload', part: 'files', path: ['uploads'], idOf: field('uuid'), one: (d, id) => d.services.uploads.exportRecord(id) },
  { kind: 'verification', part: 'files', path: ['verifications'], idOf: field('id'), one: (d, id) => d.services.verifications.exportRecord(id) },
];
const listOfKind = new Map(recordLists.map((list) => [list.kind, list]));

const parts: readonly Part[] = ['accounts', 'exchange', 'deposits', 'files'];
/** The header of the document's top level: the seed and the main stream's position. */
const topHeader = 'top';

export interface EncodedDomainState {
  /** Header name → JSON text. */
  headers: Map<string, string>;
  rows: JournalRow[];
}

export function encodeDomainState(state: SandboxDomainState): EncodedDomainState {
  const headers = new Map([[topHeader, JSON.stringify({ seed: state.seed, random: state.random })]]);
  const rows: JournalRow[] = [];
  const emptied = new Map<Part, Doc>(parts.map((part) => [part, state[part] as unknown as Doc]));
  for (const list of recordLists) {
    const part = emptied.get(list.part)!;
    for (const record of listAt(part, list.path)) rows.push({ kind: list.kind, id: list.idOf(record), doc: JSON.stringify(record) });
    emptied.set(list.part, withList(part, list.path, []));
  }
  for (const [part, doc] of emptied) headers.set(part, JSON.stringify(doc));
  return { headers, rows };
}

/** The row of the record `id` of `kind` as a whole encoding writes it; undefined when the record is gone. */
export function encodeRecord(domains: Domains, kind: RecordKind, id: string): JournalRow | undefined {
  const record = listOfKind.get(kind)!.one(domains, id);
  return record === undefined ? undefined : { kind, id, doc: JSON.stringify(record) };
}

/** Whether a kind's rows must be in the order of its list (journal-audit.ts checks it). */
export function keepsRowOrder(kind: string): boolean {
  return listOfKind.get(kind as RecordKind)?.derivedOrder !== true;
}

/** The seed the journal's sandbox was written with; undefined when it holds none. */
export async function storedSeed(journal: RecordJournal): Promise<number | undefined> {
  const top = await journal.header(topHeader);
  return top === undefined ? undefined : (storedDoc(top, `/journal/headers/${topHeader}`) as { seed: number }).seed;
}

/**
 * The domains' state a journal holds, its records in row order (the order they were created in).
 * A row or header that is not a document (a file damaged or written by hand) is a StateRejected
 * naming it; the rows' iteration is ended then too, so the store can close.
 */
export function decodeDomainState(contents: JournalContents): SandboxDomainState {
  const rows = contents.rows[Symbol.iterator]();
  try {
    // A part's header a journal lacks stays null, as it always has; the top one it cannot lack.
    const header = (name: string): Doc => {
      const text = contents.headers.get(name);
      if (text === undefined && name === topHeader) throw new StateRejected(`/journal/headers/${name}`, 'is missing');
      return text === undefined ? (null as unknown as Doc) : storedDoc(text, `/journal/headers/${name}`);
    };
    const decoded = new Map<Part, Doc>(parts.map((part) => [part, header(part)]));
    const rowsOf = new Map<string, Doc[]>(recordLists.map((list) => [list.kind, []]));
    for (let next = rows.next(); next.done !== true; next = rows.next()) {
      const row = next.value;
      rowsOf.get(row.kind)?.push(storedDoc(row.doc, `/journal/${row.kind}/${row.id}`));
    }
    for (const list of recordLists) decoded.set(list.part, withList(decoded.get(list.part)!, list.path, rowsOf.get(list.kind)!));
    const { seed, random } = header(topHeader) as { seed: number; random: number };
    return { seed, random, ...(Object.fromEntries(decoded) as unknown as Pick<SandboxDomainState, Part>) };
  } finally {
    rows.return?.();
  }
}

/** A stored row's or header's document, or a StateRejected at `pointer` when it is not one. */
function storedDoc(text: string, pointer: string): Doc {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new StateRejected(pointer, `is not a JSON document (${(error as Error).message})`);
  }
  if (typeof doc !== 'object' || doc === null) throw new StateRejected(pointer, 'is not a JSON object');
  return doc as Doc;
}

function listAt(doc: Doc, path: readonly string[]): Doc[] {
  return path.reduce<unknown>((node, key) => (node as Doc)[key], doc) as Doc[];
}

/** A copy of `doc` with the list at `path` replaced (the exported objects are left as they are). */
function withList(doc: Doc, path: readonly string[], list: Doc[]): Doc {
  const [key, ...rest] = path as [string, ...string[]];
  return { ...doc, [key]: rest.length === 0 ? list : withList(doc[key] as Doc, rest, list) };
}
