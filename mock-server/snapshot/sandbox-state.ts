// The whole sandbox as one document (the control contract's SandboxState): exported by GET
// /__mock/state, loaded by PUT /__mock/state and `serve --load FILE`. A load replaces the sandbox
// whole or not at all: every part is read into a new generation first, and only when all of them
// fit together does the sandbox take it, its store emptied and refilled.
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import type { Sandbox } from '../sandbox.js';
import { exportAccountsState, restoreAccountsState } from './accounts-state.js';
import { exportDepositsState, restoreDepositsState } from './deposits-state.js';
import { exportExchangeState, restoreExchangeState } from './exchange-state.js';
import { exportFilesState, restoreFilesState } from './files-state.js';
import { checkLimitsState, exportLimitsState, restoreLimitsState } from './limits-state.js';
import { exportWebhooksState, restoreWebhooks, webhookRecordsOf } from './webhooks-state.js';

export async function exportSandboxState(sandbox: Sandbox): Promise<SandboxState> {
  // Usage is counted in the process and added to the store in batches: add what is counted.
  await sandbox.usage.flush();
  const now = sandbox.clock.now();
  const clock = sandbox.clock.setting();
  return {
    format: 'exchange-api-kit/sandbox-state',
    version: 1,
    taken_at: now.toISOString(),
    seed: sandbox.seedInUse,
    clock: { offset_ms: clock.offsetMs, frozen_at_ms: clock.frozenAtMs },
    random: sandbox.random.state(),
    accounts: exportAccountsState(sandbox),
    limits: await exportLimitsState(sandbox.store, now.getTime()),
    webhooks: await exportWebhooksState(sandbox.store.webhooks),
    exchange: exportExchangeState(sandbox.services),
    deposits: exportDepositsState(sandbox.services),
    files: exportFilesState(sandbox.services),
  };
}

/**
 * Replaces the sandbox with the document's (validated against the contract by the caller).
 * Throws StateRejected, with the sandbox untouched, when its records do not fit together.
 */
export async function loadSandboxState(sandbox: Sandbox, state: SandboxState): Promise<{ records: number }> {
  checkLimitsState(state.limits);
  const webhooks = webhookRecordsOf(state.webhooks);
  await sandbox.replace({
    seed: state.seed,
    randomAt: state.random,
    clock: { offsetMs: state.clock.offset_ms, frozenAtMs: state.clock.frozen_at_ms },
    prepare: (generation) => {
      const references = restoreAccountsState(generation, state.accounts, { key: sandbox.defaultKey, site: sandbox.defaultSite });
      // Deposits first: an order's payments refer to the chain transactions the deposits part holds.
      restoreDepositsState(generation.services, state.deposits, references);
      restoreExchangeState(generation.services, state.exchange, references);
      restoreFilesState(generation.services, state.files, references);
    },
    store: async (store, nowMs) => {
      await restoreLimitsState(store, state.limits, nowMs);
      await restoreWebhooks(store.webhooks, webhooks);
    },
  });
  return { records: countRecords(state) };
}

/** The records of a document: the items of every list its parts hold. */
function countRecords(state: SandboxState): number {
  let records = 0;
  for (const part of [state.accounts, state.limits, state.webhooks, state.exchange, state.deposits, state.files]) {
    for (const value of Object.values(part)) if (Array.isArray(value)) records += value.length;
  }
  return records;
}
