// The whole sandbox as one document (the control contract's SandboxState): exported by GET
// /__mock/state, loaded by PUT /__mock/state and `serve --load FILE`. A load replaces the sandbox
// whole or not at all: every part is read into a new generation first, and only when all of them
// fit together does the sandbox take it, its store emptied and refilled.
import type { SandboxState } from '../../generated/sandbox-control/types.js';
import type { LoadedSandbox, Sandbox } from '../sandbox.js';
import { exportAccountsState, restoreAccountsState } from './accounts-state.js';
import { exportDepositsState, restoreDepositsState } from './deposits-state.js';
import { exportExchangeState, restoreExchangeState } from './exchange-state.js';
import { exportFilesState, restoreFilesState } from './files-state.js';
import { checkDocumentTime } from './document-time.js';
import { checkLimitsState, exportLimitsState, restoreLimitsState } from './limits-state.js';
import { checkLimitsOwners } from './limits-owners.js';
import { exportWebhooksState, restoreWebhooks, webhookRecordsOf } from './webhooks-state.js';
import { checkWebhooksOwners } from './webhooks-owners.js';

/**
 * The parts of the document the sandbox keeps in its own memory, not in the store: read at once,
 * so a durable store's journal (journal-writer.ts) is written from the very converters a
 * snapshot is.
 */
export type SandboxDomainState = Pick<SandboxState, 'seed' | 'random' | 'accounts' | 'exchange' | 'deposits' | 'files'>;

/** `withRecords` false: every list of records left empty, what a journal's headers hold (journal-rows.ts). */
export function exportDomainState(sandbox: Sandbox, withRecords = true): SandboxDomainState {
  return {
    seed: sandbox.seedInUse,
    random: sandbox.random.state(),
    accounts: exportAccountsState(sandbox, withRecords),
    exchange: exportExchangeState(sandbox.services, withRecords),
    deposits: exportDepositsState(sandbox.services, withRecords),
    files: exportFilesState(sandbox.services, withRecords),
  };
}

export async function exportSandboxState(sandbox: Sandbox): Promise<SandboxState> {
  // Usage is counted in the process and added to the store in batches: add what is counted.
  await sandbox.usage.flush();
  const now = sandbox.clock.now();
  const clock = sandbox.clock.setting();
  const { seed, random, accounts, exchange, deposits, files } = exportDomainState(sandbox);
  return {
    format: 'exchange-api-kit/sandbox-state',
    version: 1,
    taken_at: now.toISOString(),
    seed,
    clock: { offset_ms: clock.offsetMs, frozen_at_ms: clock.frozenAtMs },
    random,
    accounts,
    limits: await exportLimitsState(sandbox.store, now.getTime()),
    webhooks: await exportWebhooksState(sandbox.store.webhooks),
    exchange,
    deposits,
    files,
  };
}

/**
 * Replaces the sandbox with the document's (validated against the contract by the caller).
 * Throws StateRejected, with the sandbox untouched, when its records do not fit together.
 */
export async function loadSandboxState(sandbox: Sandbox, state: SandboxState): Promise<{ records: number }> {
  checkDocumentTime(state, sandbox.clock);
  checkLimitsState(state.limits);
  const webhooks = webhookRecordsOf(state.webhooks);
  const domains = loadedDomains(state);
  await sandbox.replace({
    ...domains,
    prepare: (generation) => {
      domains.prepare(generation);
      // What the store keeps belongs to the keys and sites just restored.
      checkLimitsOwners(state.limits, generation);
      checkWebhooksOwners(webhooks, generation);
    },
    clock: { offsetMs: state.clock.offset_ms, frozenAtMs: state.clock.frozen_at_ms },
    store: async (store, nowMs) => {
      await restoreLimitsState(store, state.limits, nowMs);
      await restoreWebhooks(store.webhooks, webhooks);
    },
  });
  return { records: countRecords(state) };
}

/**
 * Takes up the domains' records a durable store's journal kept (journal-resume.ts): the store
 * holds the rest of the sandbox already, the clock's setting included, and keeps it;
 * `depositsStored`: the deposits too (restoreDepositsState).
 */
export async function resumeDomainState(sandbox: Sandbox, state: SandboxDomainState, depositsStored: boolean): Promise<void> {
  await sandbox.replace({ ...loadedDomains(state, depositsStored), clock: sandbox.clock.setting() });
}

/** `depositsStored`: the deposits are left in the store (restoreDepositsState). */
function loadedDomains(state: SandboxDomainState, depositsStored = false): Pick<LoadedSandbox, 'seed' | 'randomAt' | 'prepare'> {
  return {
    seed: state.seed,
    randomAt: state.random,
    prepare: (generation) => {
      const references = restoreAccountsState(generation, state.accounts);
      // Deposits first: an order's payments refer to the chain transactions the deposits part holds.
      restoreDepositsState(generation.services, state.deposits, references, depositsStored);
      restoreExchangeState(generation.services, state.exchange, references);
      restoreFilesState(generation.services, state.files, references);
    },
  };
}

/** The records of a document: the items of every list its parts hold. */
function countRecords(state: SandboxState): number {
  let records = 0;
  for (const part of [state.accounts, state.limits, state.webhooks, state.exchange, state.deposits, state.files]) {
    for (const value of Object.values(part)) if (Array.isArray(value)) records += value.length;
  }
  return records;
}
