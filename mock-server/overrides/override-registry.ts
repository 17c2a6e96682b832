// The overrides a test installed (`mock.use`), one per operation: a later one for the same
// operation replaces the earlier. Untyped inside: `use` checks the operation exists, since a
// caller in plain JavaScript escapes the types.
import { depositV1Routes } from '../../generated/deposit-v1/routes.js';
import { exchangeV3Routes } from '../../generated/exchange-v3/routes.js';
import type { OverridableOperation, OverrideContext, OverrideHandlers } from './override-types.js';

/** An installed override, as the wrapped handlers call it (with-overrides.ts reads its answer). */
export type StoredOverride = (request: unknown, context: OverrideContext) => unknown;

const overridable = new Set([...exchangeV3Routes, ...depositV1Routes].map((route) => route.operationId));

export class OverrideRegistry {
  private readonly handlers = new Map<string, StoredOverride>();

  use<Id extends OverridableOperation>(operationId: Id, handler: OverrideHandlers[Id]): void {
    if (!overridable.has(operationId)) throw new TypeError(`mock.use: ${String(operationId)} is not an operation of the exchange v3 or deposit v1 contract`);
    if (typeof handler !== 'function') throw new TypeError(`mock.use: the override of ${operationId} must be a function`);
    this.handlers.set(operationId, handler as unknown as StoredOverride);
  }

  /** Removes every override: the simulation answers every operation again. */
  reset(): void {
    this.handlers.clear();
  }

  find(operationId: string): StoredOverride | undefined {
    return this.handlers.get(operationId);
  }
}
