// Operations whose domain the mock does not simulate yet answer 501 `not_simulated` (outside
// the contract, on purpose: a mock that invents answers would lie). The README lists them.
import { HttpError } from '../http/http-error.js';

export function notSimulated<Id extends string>(operationIds: readonly Id[]): Record<Id, () => never> {
  return Object.fromEntries(
    operationIds.map((id) => [id, () => {
      throw new HttpError('not_simulated', `${id} is not simulated by this version of the mock yet.`, undefined, undefined, 501);
    }]),
  ) as Record<Id, () => never>;
}
