// The network catalog of the deposit gateway: the chains deposits and payouts can use, with the
// public fields of the contract's Network schema plus what the simulated chain needs (block time
// for confirmations accruing on the virtual clock, a plausible current height to start from).
// Confirmation defaults follow docs/domain-notes.md ("Typical confirmations") and the
// contract's listNetworks example where it gives one (BTC 2, ETH 12, TRON 20).
import type { Network } from '../../../generated/deposit-v1/types.js';

export type NetworkCode = 'BTC' | 'ETH' | 'TRON' | 'BSC' | 'POLYGON' | 'SOLANA' | 'TON' | 'LTC' | 'DOGE' | 'XRP' | 'XLM';
export type NetworkArchetype = Network['archetype'];
export type MemoName = NonNullable<Network['memoName']>;

export type NetworkDefinition = Readonly<
  Omit<Network, 'code'> & {
    code: NetworkCode;
    /** Average seconds between blocks (ledgers, slots); fractional on fast chains (Solana 0.4). */
    blockTimeSeconds: number;
    /** A plausible recent block height (ledger index, slot, masterchain seqno) to start the simulated chain near. */
    referenceHeight: number;
  }
>;

const network = (definition: NetworkDefinition): NetworkDefinition => Object.freeze(definition);

export const networks: readonly NetworkDefinition[] = Object.freeze([
  network({ code: 'BTC', name: 'Bitcoin', archetype: 'utxo', nativeTicker: 'BTC', enabled: true, defaultConfirmations: 2, memoRequired: false, memoName: null, blockTimeSeconds: 600, referenceHeight: 880_000 }),
  network({ code: 'ETH', name: 'Ethereum', archetype: 'evm', nativeTicker: 'ETH', enabled: true, defaultConfirmations: 12, memoRequired: false, memoName: null, blockTimeSeconds: 12, referenceHeight: 22_000_000 }),
  network({ code: 'TRON', name: 'Tron', archetype: 'tron', nativeTicker: 'TRX', enabled: true, defaultConfirmations: 20, memoRequired: false, memoName: null, blockTimeSeconds: 3, referenceHeight: 70_400_000 }),
  network({ code: 'BSC', name: 'BNB Smart Chain', archetype: 'evm', nativeTicker: 'BNB', enabled: true, defaultConfirmations: 15, memoRequired: false, memoName: null, blockTimeSeconds: 3, referenceHeight: 45_000_000 }),
  // POL replaced MATIC as Polygon PoS's native coin in September 2024.
  network({ code: 'POLYGON', name: 'Polygon PoS', archetype: 'evm', nativeTicker: 'POL', enabled: true, defaultConfirmations: 128, memoRequired: false, memoName: null, blockTimeSeconds: 2, referenceHeight: 68_000_000 }),
  network({ code: 'SOLANA', name: 'Solana', archetype: 'solana', nativeTicker: 'SOL', enabled: true, defaultConfirmations: 1, memoRequired: false, memoName: null, blockTimeSeconds: 0.4, referenceHeight: 320_000_000 }),
  network({ code: 'TON', name: 'TON', archetype: 'ton', nativeTicker: 'TON', enabled: true, defaultConfirmations: 1, memoRequired: true, memoName: 'comment', blockTimeSeconds: 5, referenceHeight: 45_000_000 }),
  network({ code: 'LTC', name: 'Litecoin', archetype: 'utxo', nativeTicker: 'LTC', enabled: true, defaultConfirmations: 6, memoRequired: false, memoName: null, blockTimeSeconds: 150, referenceHeight: 2_850_000 }),
  network({ code: 'DOGE', name: 'Dogecoin', archetype: 'utxo', nativeTicker: 'DOGE', enabled: true, defaultConfirmations: 6, memoRequired: false, memoName: null, blockTimeSeconds: 60, referenceHeight: 5_600_000 }),
  network({ code: 'XRP', name: 'XRP Ledger', archetype: 'xrp', nativeTicker: 'XRP', enabled: true, defaultConfirmations: 1, memoRequired: true, memoName: 'destination_tag', blockTimeSeconds: 4, referenceHeight: 94_500_000 }),
  network({ code: 'XLM', name: 'Stellar', archetype: 'stellar', nativeTicker: 'XLM', enabled: true, defaultConfirmations: 1, memoRequired: true, memoName: 'memo', blockTimeSeconds: 5, referenceHeight: 56_000_000 }),
]);

/** Every network's code, in catalog order. */
export const networkCodes: readonly NetworkCode[] = networks.map((n) => n.code);

const byCode = new Map<string, NetworkDefinition>(networks.map((n) => [n.code, n]));

/** The network with this code, enabled or not; undefined for an unknown code. */
export function findNetwork(code: string): NetworkDefinition | undefined {
  return byCode.get(code);
}

/** Like findNetwork, for codes the caller already knows to exist (a bug otherwise). */
export function requireNetwork(code: string): NetworkDefinition {
  const found = byCode.get(code);
  if (found === undefined) throw new Error(`unknown network ${code}`);
  return found;
}

/** What listNetworks shows: the enabled networks, in catalog order. */
export function enabledNetworks(catalog: readonly NetworkDefinition[] = networks): NetworkDefinition[] {
  return catalog.filter((n) => n.enabled);
}

/** The contract's Network: the public fields only (the simulation's fields stay inside). */
export function publicNetwork(n: NetworkDefinition): Network {
  return {
    code: n.code,
    name: n.name,
    archetype: n.archetype,
    nativeTicker: n.nativeTicker,
    enabled: n.enabled,
    defaultConfirmations: n.defaultConfirmations,
    memoRequired: n.memoRequired,
    memoName: n.memoName,
  };
}

/** Whole blocks a network produces in `elapsedMs` of (virtual) time: how confirmations accrue. */
export function blocksIn(n: NetworkDefinition, elapsedMs: number): number {
  if (elapsedMs <= 0) return 0;
  return Math.floor(elapsedMs / (n.blockTimeSeconds * 1000));
}
