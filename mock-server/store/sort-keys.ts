// What a list's records are keyed by in each sort field, and by which id: a cursor carries the
// keys of the last record of its page, so a cursor whose keys are not of these kinds was not
// issued by this server for this list (made up or edited) and is refused before it reaches an
// index or a database query (list-query.ts, decodeCursor). Each kind types its value function,
// so a collection's declared kinds cannot drift from what its records give.

export type KeyKind = 'number' | 'string' | 'number or null';
export type IdKind = 'number' | 'string';

export type SortKey<R> =
  | { kind: 'number'; value: (record: R) => number }
  | { kind: 'string'; value: (record: R) => string }
  | { kind: 'number or null'; value: (record: R) => number | null };

export type IdKey<R> = { kind: 'number'; value: (record: R) => number } | { kind: 'string'; value: (record: R) => string };

/** Sort keys (and ids) by kind: `key.number((order) => order.id)`. */
export const key = {
  number: <R>(value: (record: R) => number) => ({ kind: 'number', value }) as const,
  string: <R>(value: (record: R) => string) => ({ kind: 'string', value }) as const,
  numberOrNull: <R>(value: (record: R) => number | null) => ({ kind: 'number or null', value }) as const,
};

/** The kinds of a list's keys: each sort field's, and the id's (the tie-breaker). */
export interface ListKeys {
  readonly fields: Readonly<Record<string, KeyKind>>;
  readonly id: IdKind;
}

export function listKeys<R>(fields: Readonly<Record<string, SortKey<R>>>, id: IdKey<R>): ListKeys {
  return { fields: Object.fromEntries(Object.entries(fields).map(([name, sortKey]) => [name, sortKey.kind])), id: id.kind };
}

/**
 * Whether a cursor's keys (one per sort field, in order) and id are of the kinds the list gives
 * them; throws for a sort field the list does not have (a domain bug, as ListableCollection does).
 */
export function keysFit(keys: ListKeys, fields: readonly string[], values: readonly unknown[], id: unknown): boolean {
  if (values.length !== fields.length || typeof id !== keys.id) return false;
  return fields.every((field, i) => {
    const kind = keys.fields[field];
    if (kind === undefined) throw new Error(`keysFit: the list has no sort field ${field}`);
    const value = values[i];
    return kind === 'number or null' ? value === null || typeof value === 'number' : typeof value === kind;
  });
}
