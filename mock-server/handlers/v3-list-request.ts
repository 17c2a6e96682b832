// The ListRequest of a v3 list operation from its validated query (page or cursor mode, sort,
// filters), or the contract's validation_error for a cursor the query cannot use.
import { HttpError } from '../http/http-error.js';
import { listContract } from '../store/list-contract.js';
import { v3ListRequest, type ListRequest, type V3ListQuery } from '../store/list-query.js';
import type { ListKeys } from '../store/sort-keys.js';

/** `keys`: what the listed records are keyed by (a ListableCollection's `keys`), which a cursor's keys must be. */
export function v3ListRequestOf(query: V3ListQuery, operationId: string, keys: ListKeys): ListRequest<'v3'> {
  const result = v3ListRequest(query, listContract('v3', operationId), keys);
  if (!result.ok) throw new HttpError('validation_error', 'The given data was invalid.', result.details);
  return result.request;
}
