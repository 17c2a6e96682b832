// The domains' part of a sandbox document (SandboxDomainState) as a durable store's journal holds
// it: every record of a list as a row of its kind, keyed by its id, and what is left of each part
// (random streams, id counters, settings: the part with its lists emptied) as a header row. The
// rows are encoded with the snapshot's own converters, so the journal and a snapshot cannot drift.
import type { JournalContents, JournalRow, RecordJournal } from '../store/record-journal.js';
import type { SandboxDomainState } from './sandbox-state.js';

type Part = 'accounts' | 'exchange' | 'deposits' | 'files';
type Doc = Record<string, unknown>;

interface RecordList {
  kind: string;
  part: Part;
  /** Where the list is inside its part. */
  path: readonly string[];
  /** What tells its records apart (the document's own key of the record). */
  idOf: (record: Doc) => string;
}

const field =
  (...names: string[]) =>
  (record: Doc): string =>
    names.map((name) => String(record[name])).join(' ');

/** Every list of records in the domains' parts; a list not named here would be lost by a restart. */
const recordLists: readonly RecordList[] = [
  { kind: 'key', part: 'accounts', path: ['keys'], idOf: field('id') },
  { kind: 'site', part: 'accounts', path: ['sites'], idOf: field('id') },
  { kind: 'quote', part: 'exchange', path: ['quotes', 'quotes'], idOf: field('id') },
  { kind: 'order', part: 'exchange', path: ['orders', 'orders'], idOf: field('publicId') },
  { kind: 'review', part: 'exchange', path: ['reviews', 'reviews'], idOf: field('id') },
  { kind: 'partnerAccount', part: 'exchange', path: ['partners', 'accounts'], idOf: field('clientId') },
  { kind: 'payout', part: 'exchange', path: ['partners', 'payouts'], idOf: field('id') },
  { kind: 'deposit', part: 'deposits', path: ['deposits'], idOf: field('uuid') },
  { kind: 'transaction', part: 'deposits', path: ['transactions'], idOf: field('hash') },
  { kind: 'staticAddress', part: 'deposits', path: ['staticAddresses'], idOf: field('uuid') },
  { kind: 'depositScreening', part: 'deposits', path: ['depositScreenings'], idOf: field('depositUuid', 'hash') },
  { kind: 'amlCheck', part: 'deposits', path: ['amlChecks'], idOf: field('uuid') },
  { kind: 'upload', part: 'files', path: ['uploads'], idOf: field('uuid') },
  { kind: 'verification', part: 'files', path: ['verifications'], idOf: field('id') },
];

const parts: readonly Part[] = ['accounts', 'exchange', 'deposits', 'files'];
/** The header of the document's top level: the seed and the main stream's position. */
const topHeader = 'top';

interface EncodedDomainState {
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

/** The seed the journal's sandbox was written with; undefined when it holds none. */
export async function storedSeed(journal: RecordJournal): Promise<number | undefined> {
  const top = await journal.header(topHeader);
  return top === undefined ? undefined : (JSON.parse(top) as { seed: number }).seed;
}

/** The domains' state a journal holds, its records in row order (the order they were created in). */
export function decodeDomainState(contents: JournalContents): SandboxDomainState {
  const header = (name: string): Doc => JSON.parse(contents.headers.get(name) ?? 'null') as Doc;
  const decoded = new Map<Part, Doc>(parts.map((part) => [part, header(part)]));
  const rowsOf = new Map<string, Doc[]>(recordLists.map((list) => [list.kind, []]));
  for (const row of contents.rows) rowsOf.get(row.kind)?.push(JSON.parse(row.doc) as Doc);
  for (const list of recordLists) decoded.set(list.part, withList(decoded.get(list.part)!, list.path, rowsOf.get(list.kind)!));
  const { seed, random } = header(topHeader) as { seed: number; random: number };
  return { seed, random, ...(Object.fromEntries(decoded) as unknown as Pick<SandboxDomainState, Part>) };
}

function listAt(doc: Doc, path: readonly string[]): Doc[] {
  return path.reduce<unknown>((node, key) => (node as Doc)[key], doc) as Doc[];
}

/** A copy of `doc` with the list at `path` replaced (the exported objects are left as they are). */
function withList(doc: Doc, path: readonly string[], list: Doc[]): Doc {
  const [key, ...rest] = path as [string, ...string[]];
  return { ...doc, [key]: rest.length === 0 ? list : withList(doc[key] as Doc, rest, list) };
}
