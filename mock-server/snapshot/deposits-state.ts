// The deposits part of a sandbox snapshot: export and restore of its services' records.
import type { SandboxStateDeposits } from '../../generated/sandbox-control/types.js';
import type { StateReferences } from '../domain/state-rejected.js';
import type { SandboxServices } from '../services.js';
import { BY_STATIC_ADDRESS } from '../store/deposit-store.js';

/** `withRecords` false: every list of records left empty (a journal's header, journal-rows.ts). */
export function exportDepositsState(services: SandboxServices, withRecords = true): SandboxStateDeposits {
  const { deposits, staticAddresses, depositAml, aml } = services;
  const gateway = deposits.exportState(withRecords);
  const statics = staticAddresses.exportState(withRecords);
  return {
    deposits: gateway.deposits,
    transactions: gateway.transactions,
    staticAddresses: statics.addresses,
    hotWallets: statics.hotWallets,
    depositScreenings: withRecords ? depositAml.exportState(deposits.records.values()) : [],
    amlChecks: withRecords ? aml.exportState() : [],
    amlProvider: aml.provider.exportState(),
    random: { deposits: gateway.random, staticAddresses: statics.random },
  };
}

/**
 * Replaces the records of freshly built services with the snapshot's; throws StateRejected.
 * `depositsStored`: the snapshot's deposits are left in the store, which reads them when asked
 * for (a restart on sqlite:, journal-resume.ts); its list of them is empty.
 */
export function restoreDepositsState(services: SandboxServices, state: SandboxStateDeposits, references: StateReferences, depositsStored = false): void {
  const { deposits, staticAddresses, depositAml, aml } = services;
  // Static addresses first: their destinations are reserved before the deposits', and a payment
  // deposit refers to its static address.
  staticAddresses.restoreState({ addresses: state.staticAddresses, hotWallets: state.hotWallets, randomAt: state.random.staticAddresses }, references, '/deposits');
  const site = (id: number, pointer: string) => references.site(id, pointer);
  const part = { transactions: state.transactions, randomAt: state.random.deposits };
  if (depositsStored) {
    deposits.resumeState(part, { site, staticPayment: (uuid, deposit, pointer) => staticAddresses.paymentRef(uuid, deposit, pointer) }, '/deposits');
    staticAddresses.countPayments((uuid) => deposits.records.count({ partition: BY_STATIC_ADDRESS, key: uuid }));
  } else {
    deposits.restoreState({ ...part, deposits: state.deposits }, { site, staticPayment: (uuid, deposit, pointer) => staticAddresses.staticPayment(uuid, deposit, pointer) }, '/deposits');
  }
  depositAml.restoreState(state.depositScreenings, (uuid) => deposits.records.get(uuid), '/deposits/depositScreenings');
  aml.restoreState(state.amlChecks, references, '/deposits/amlChecks');
  aml.provider.restoreState(state.amlProvider, '/deposits/amlProvider');
}
