// Fake on-chain data that looks like each real chain's (docs/domain-notes.md, "Address and
// hash shapes"): addresses, memos, transaction hashes and block heights, drawn from a seeded
// Random so a seed replays the same values. Shapes only: no checksums, no key material.
import type { Random } from '../../random.js';
import { requireNetwork, type MemoName, type NetworkCode } from './networks.js';

/** Bitcoin's base58 alphabet (no 0, O, I, l); XRP's alphabet is a permutation of the same set. */
const base58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** The bech32 data alphabet (BIP 173). */
const bech32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const base32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const hex = '0123456789abcdef';
const memoText = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Who the address is for: a `deposit` address is what a gateway hands out (the chain's modern
 * default format: bech32 P2WPKH on BTC/LTC, bounceable EQ on TON); a `sender` may use any
 * format the chain accepts (legacy, P2SH, taproot, non-bounceable UQ).
 */
export type AddressRole = 'deposit' | 'sender';

/** Largest XRP destination tag (unsigned 32-bit). */
export const maxDestinationTag = 4_294_967_295;
/** Longest Stellar MEMO_TEXT, in bytes. */
export const maxStellarMemoLength = 28;
/** Longest TON comment this mock makes (a single-cell text comment holds up to 123 bytes). */
export const maxTonCommentLength = 120;

export interface ChainData {
  address(network: NetworkCode, role?: AddressRole): string;
  /**
   * A fresh memo on a memo network (XRP destination tag, XLM memo text, TON comment); null on
   * the others. `prefix` (text memos only) tells kinds apart, e.g. 'dp' deposits, 'sa' static.
   */
  memo(network: NetworkCode, prefix?: string): string | null;
  txHash(network: NetworkCode): string;
  /** A block height near the network's current tip, where a simulated chain can start. */
  blockHeight(network: NetworkCode): number;
}

export function createChainData(random: Random): ChainData {
  const pick = (...choices: [weight: number, make: () => string][]): string => {
    const total = choices.reduce((sum, [w]) => sum + w, 0);
    let roll = random.next() * total;
    for (const [weight, make] of choices) {
      roll -= weight;
      if (roll < 0) return make();
    }
    const last = choices[choices.length - 1];
    if (last === undefined) throw new Error('pick needs a choice');
    return last[1]();
  };
  const chars = (alphabet: string, min: number, max: number = min): string => random.string(random.int(min, max), alphabet);
  const evmAddress = (): string => `0x${chars(hex, 40)}`;

  const addresses: Record<NetworkCode, (role: AddressRole) => string> = {
    BTC: (role) =>
      role === 'deposit'
        ? `bc1q${chars(bech32, 38)}`
        : pick(
            [60, () => `bc1q${chars(bech32, 38)}`],
            [15, () => `bc1p${chars(bech32, 58)}`],
            [15, () => `1${chars(base58, 32, 33)}`],
            [10, () => `3${chars(base58, 33)}`],
          ),
    ETH: evmAddress,
    BSC: evmAddress,
    POLYGON: evmAddress,
    TRON: () => `T${chars(base58, 33)}`,
    LTC: (role) =>
      role === 'deposit'
        ? `ltc1q${chars(bech32, 38)}`
        : pick([70, () => `ltc1q${chars(bech32, 38)}`], [15, () => `L${chars(base58, 33)}`], [15, () => `M${chars(base58, 33)}`]),
    DOGE: () => `D${chars(base58, 33)}`,
    // 32 bytes in base58: 43 or 44 characters for almost every key.
    SOLANA: () => chars(base58, 43, 44),
    // A user-friendly TON address is 36 bytes in base64url: the tag (EQ bounceable, UQ not), then
    // workchain 0 makes the third character A-D.
    TON: (role) => `${role === 'deposit' || random.next() < 0.5 ? 'EQ' : 'UQ'}${chars('ABCD', 1)}${chars(base64url, 45)}`,
    XRP: () => `r${chars(base58, 24, 33)}`,
    // An ed25519 account key: G, then A-D from the version byte, then 54 base32 characters.
    XLM: () => `G${chars('ABCD', 1)}${chars(base32, 54)}`,
  };

  const textMemo = (prefix: string, maxLength: number): string => {
    const body = chars(memoText, 10);
    const memo = prefix === '' ? body : `${prefix}-${body}`;
    if (Buffer.byteLength(memo, 'utf8') > maxLength) throw new Error(`memo prefix ${prefix} is too long`);
    return memo;
  };
  // Keyed by the network's memoName, so the catalog's memo flags alone decide which networks get one.
  const memos: Record<MemoName, (prefix: string) => string> = {
    // Destination tags from 1: 0 is legal but wallets treat it as "no tag".
    destination_tag: () => String(random.int(1, maxDestinationTag)),
    memo: (prefix) => textMemo(prefix, maxStellarMemoLength),
    // A TON comment may be long, but a payer types it by hand: same length as the others.
    comment: (prefix) => textMemo(prefix, maxTonCommentLength),
  };

  const hashes: Record<NetworkCode, () => string> = {
    BTC: () => chars(hex, 64),
    ETH: () => `0x${chars(hex, 64)}`,
    BSC: () => `0x${chars(hex, 64)}`,
    POLYGON: () => `0x${chars(hex, 64)}`,
    TRON: () => chars(hex, 64),
    LTC: () => chars(hex, 64),
    DOGE: () => chars(hex, 64),
    // A Solana signature is 64 bytes in base58.
    SOLANA: () => chars(base58, 87, 88),
    TON: () => chars(hex, 64),
    XRP: () => chars(hex, 64).toUpperCase(),
    XLM: () => chars(hex, 64),
  };

  return {
    address: (network, role = 'deposit') => addresses[requireNetwork(network).code](role),
    memo: (network, prefix = 'dp') => {
      const { memoName } = requireNetwork(network);
      return memoName === null ? null : memos[memoName](prefix);
    },
    txHash: (network) => hashes[requireNetwork(network).code](),
    blockHeight: (network) => requireNetwork(network).referenceHeight + random.int(0, 99_999),
  };
}
