// One page of one kind of record for the inspector (control listInspectorRecords): a text search
// over every value a record shows, a status filter, and the webhook deliveries never sent (a v1
// site without a callback URL) left out unless asked for, and counted.
import type { ListInspectorRecordsQuery } from '../../generated/sandbox-control/types.js';
import type { InspectorKindSpec, InspectorSource, Shown } from './inspector-kinds.js';

export interface InspectorQuery {
  q?: string | undefined;
  status?: string | undefined;
  notSent: NonNullable<ListInspectorRecordsQuery['not_sent']>;
  offset: number;
  limit: number;
}

export interface InspectorPage {
  items: Shown[];
  total: number;
  notSentHidden: number;
}

export async function inspectorPage(spec: InspectorKindSpec, source: InspectorSource<never>, query: InspectorQuery): Promise<InspectorPage> {
  if (query.notSent === 'only' && !spec.mayBeUnsent) return { items: [], total: 0, notSentHidden: 0 };
  const sent = spec.mayBeUnsent && query.notSent !== 'include' ? query.notSent === 'exclude' : undefined;
  const page = source.select(query.offset, query.limit, recordFilter(source, query, sent));
  const hidden = sent === true ? source.select(0, 0, recordFilter(source, query, false)).total : 0;
  return { items: await Promise.all(page.items.map((record) => source.complete(record))), total: page.total, notSentHidden: hidden };
}

/** The predicate of the query (undefined when it keeps every record, so a page needs no scan). */
function recordFilter(source: InspectorSource<never>, query: InspectorQuery, sent: boolean | undefined): ((record: never) => boolean) | undefined {
  const checks: ((shown: Shown) => boolean)[] = [];
  if (query.status !== undefined) checks.push((shown) => shown.status === query.status);
  const needle = query.q?.toLowerCase();
  if (needle !== undefined) checks.push((shown) => valuesText(shown).includes(needle));
  if (sent !== undefined) checks.push((shown) => (shown.not_sent === null || shown.not_sent === undefined) === sent);
  if (checks.length === 0) return undefined;
  return (record) => {
    const shown = source.present(record);
    return checks.every((check) => check(shown));
  };
}

/** Every value the record shows (not its field names), lower-cased, one per line. */
function valuesText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return Object.values(value).map(valuesText).join('\n');
  return String(value).toLowerCase();
}
