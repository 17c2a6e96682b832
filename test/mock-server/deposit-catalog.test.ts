// The deposit catalog (networks, assets) against the contract's Network / Asset schemas and the
// domain notes, listAssets / listNetworks over real HTTP through the signed DepositV1Client, and
// the seeded chain-data generators against the address / hash shapes of docs/domain-notes.md
// (the regexes below are copied from that table on purpose: the generator must not grade itself).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../generated/runtime/client-errors.js';
import { DepositV1Client } from '../../generated/deposit-v1/client.js';
import { assets, depositableAsset, findAsset, listedAssets, publicAsset } from '../../mock-server/domain/deposits/assets.js';
import { createChainData, maxDestinationTag, maxStellarMemoLength, maxTonCommentLength, type ChainData } from '../../mock-server/domain/deposits/chain-data.js';
import { blocksIn, enabledNetworks, findNetwork, networks, publicNetwork, requireNetwork, type NetworkCode, type NetworkDefinition } from '../../mock-server/domain/deposits/networks.js';
import { createRandom } from '../../mock-server/random.js';
import { expectContractBody } from './support/contract.js';
import { startTestServer, type TestServer } from './support/server.js';

const evmAddress = /^0x[0-9a-fA-F]{40}$/;
const addressShapes: Record<NetworkCode, RegExp> = {
  BTC: /^(bc1q[0-9a-z]{38}|bc1p[0-9a-z]{58}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})$/,
  ETH: evmAddress,
  BSC: evmAddress,
  POLYGON: evmAddress,
  TRON: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  LTC: /^(ltc1[0-9a-z]{39}|[LM][a-km-zA-HJ-NP-Z1-9]{33})$/,
  DOGE: /^D[1-9A-HJ-NP-Za-km-z]{25,34}$/,
  SOLANA: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
  TON: /^(EQ|UQ)[A-Za-z0-9_-]{46}$/,
  XRP: /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/,
  XLM: /^G[A-D][A-Z2-7]{54}$/,
};
const hex64 = /^[0-9a-f]{64}$/;
const evmHash = /^0x[0-9a-f]{64}$/;
const hashShapes: Record<NetworkCode, RegExp> = {
  BTC: hex64,
  ETH: evmHash,
  BSC: evmHash,
  POLYGON: evmHash,
  TRON: hex64,
  LTC: hex64,
  DOGE: hex64,
  SOLANA: /^[1-9A-HJ-NP-Za-km-z]{87,88}$/,
  TON: hex64,
  XRP: /^[0-9A-F]{64}$/,
  XLM: hex64,
};
/** Bech32 addresses use only the BIP 173 data alphabet after the separator. */
const bech32Body = /^(bc1|ltc1)[qpzry9x8gf2tvdw0s3jn54khce6mua7l]+$/;
/** docs/domain-notes.md "Typical confirmations" as [min, max]. */
const typicalConfirmations: Record<NetworkCode, [number, number]> = {
  BTC: [1, 6],
  ETH: [6, 12],
  TRON: [1, 20],
  BSC: [15, 15],
  POLYGON: [128, Number.POSITIVE_INFINITY],
  SOLANA: [1, 1],
  TON: [1, 1],
  XRP: [1, 1],
  XLM: [1, 1],
  LTC: [3, 6],
  DOGE: [6, Number.POSITIVE_INFINITY],
};
const requiredNetworks: NetworkCode[] = ['BTC', 'ETH', 'TRON', 'BSC', 'POLYGON', 'SOLANA', 'TON', 'LTC', 'DOGE', 'XRP', 'XLM'];

const networkCodes = networks.map((n) => n.code);
const seeds = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const chainFor = (seed: number): ChainData => createChainData(createRandom(seed));
const times = <T>(count: number, make: () => T): T[] => Array.from({ length: count }, make);

describe('network catalog', () => {
  it('has the required networks, each valid against the contract (listNetworks 200)', () => {
    expect(networkCodes).toEqual(expect.arrayContaining(requiredNetworks));
    expect(new Set(networkCodes).size).toBe(networkCodes.length);
    for (const n of networks) expectContractBody('v1', 'listNetworks', 200, { data: [publicNetwork(n)] });
    expectContractBody('v1', 'listNetworks', 200, { data: networks.map(publicNetwork) });
  });

  it('flags exactly XRP, XLM and TON as memo networks, with their memo names', () => {
    expect(networks.filter((n) => n.memoRequired).map((n) => n.code).sort()).toEqual(['TON', 'XLM', 'XRP']);
    for (const n of networks) expect(n.memoName !== null, n.code).toBe(n.memoRequired);
    expect(requireNetwork('XRP').memoName).toBe('destination_tag');
    expect(requireNetwork('XLM').memoName).toBe('memo');
    expect(requireNetwork('TON').memoName).toBe('comment');
  });

  it('uses the typical confirmations of the domain notes and a positive block time', () => {
    for (const n of networks) {
      const [min, max] = typicalConfirmations[n.code];
      expect(n.defaultConfirmations, n.code).toBeGreaterThanOrEqual(min);
      expect(n.defaultConfirmations, n.code).toBeLessThanOrEqual(max);
      expect(n.blockTimeSeconds, n.code).toBeGreaterThan(0);
      expect(Number.isSafeInteger(n.referenceHeight), n.code).toBe(true);
    }
  });

  it('keeps the simulation fields out of the public shape and counts whole blocks', () => {
    const btc = requireNetwork('BTC');
    expect(Object.keys(publicNetwork(btc)).sort()).toEqual(['archetype', 'code', 'defaultConfirmations', 'enabled', 'memoName', 'memoRequired', 'name', 'nativeTicker']);
    expect(blocksIn(btc, 0)).toBe(0);
    expect(blocksIn(btc, 599_999)).toBe(0);
    expect(blocksIn(btc, 1_800_000)).toBe(3);
    expect(blocksIn(requireNetwork('SOLANA'), 1_000)).toBe(2);
    expect(findNetwork('NOPE')).toBeUndefined();
    expect(() => requireNetwork('NOPE')).toThrow();
  });

  it('lists only enabled networks', () => {
    const disabled: NetworkDefinition = { ...requireNetwork('BTC'), enabled: false };
    const catalog = [disabled, requireNetwork('ETH')];
    expect(enabledNetworks(catalog).map((n) => n.code)).toEqual(['ETH']);
  });
});

describe('asset catalog', () => {
  it('validates every asset against the contract (listAssets 200)', () => {
    for (const a of assets) expectContractBody('v1', 'listAssets', 200, { data: [publicAsset(a)] });
    expectContractBody('v1', 'listAssets', 200, { data: assets.map(publicAsset) });
  });

  it('puts every asset on a known, enabled network', () => {
    for (const a of assets) expect(findNetwork(a.network)?.enabled, a.code).toBe(true);
  });

  it('has one native coin per network, coded by its ticker', () => {
    expect(new Set(assets.map((a) => a.code)).size).toBe(assets.length);
    for (const n of networks) {
      const natives = assets.filter((a) => a.network === n.code && a.tokenStandard === null);
      expect(natives.map((a) => a.code), n.code).toEqual([n.nativeTicker]);
      expect(natives[0]?.contractAddress, n.code).toBeNull();
    }
  });

  it('codes tokens <TICKER>_<NETWORK> with a contract address shaped like the network’s addresses', () => {
    const tokens = assets.filter((a) => a.tokenStandard !== null);
    for (const t of tokens) {
      expect(t.code).toBe(`${t.ticker}_${t.network}`);
      expect(t.contractAddress, t.code).toMatch(addressShapes[t.network]);
    }
    const codes = tokens.map((t) => t.code);
    expect(codes).toEqual(expect.arrayContaining(['USDT_TRON', 'USDT_ETH', 'USDT_BSC', 'USDT_POLYGON', 'USDT_SOLANA', 'USDT_TON', 'USDC_ETH', 'USDC_SOLANA']));
    expect(findAsset('USDT_TRON')).toMatchObject({ tokenStandard: 'TRC20', decimals: 6, contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' });
    expect(findAsset('USDT_BSC')).toMatchObject({ tokenStandard: 'BEP20', decimals: 18 });
    expect(findAsset('USDT_SOLANA')?.tokenStandard).toBe('SPL');
    expect(findAsset('USDT_TON')?.tokenStandard).toBe('Jetton');
  });

  it('has minimum amounts that are positive decimal strings within the asset’s decimals', () => {
    for (const a of assets) {
      for (const amount of [a.minDepositAmount, a.minPayoutAmount]) {
        expect(amount, a.code).toMatch(/^\d+(\.\d+)?$/);
        expect(Number(amount), a.code).toBeGreaterThan(0);
        expect((amount.split('.')[1] ?? '').length, a.code).toBeLessThanOrEqual(a.decimals);
      }
    }
  });

  it('lists assets that take deposits or payouts on an enabled network', () => {
    const listed = listedAssets().map((a) => a.code);
    expect(listed).toContain('USDT_ETH'); // deposits only
    expect(listed).not.toContain('USDC_TRON'); // neither
    expect(findAsset('USDC_TRON')).toBeDefined();
    expect(depositableAsset('USDC_TRON')).toBeUndefined();
    expect(depositableAsset('USDT_TRON')?.code).toBe('USDT_TRON');
    // A disabled network takes its assets off the list.
    expect(listedAssets(assets, (code) => code !== 'TRON').some((a) => a.network === 'TRON')).toBe(false);
    const depositOnly = { ...requireAsset('BTC'), payoutEnabled: false };
    const payoutOnly = { ...requireAsset('ETH'), depositEnabled: false };
    expect(listedAssets([depositOnly, payoutOnly]).map((a) => a.code)).toEqual(['BTC', 'ETH']);
  });
});

describe('listNetworks / listAssets over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: 6 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('returns the enabled networks to a signed client', async () => {
    const response = await server.v1.listNetworks();
    expect(response.status).toBe(200);
    expect(response.requestId).toBeTruthy();
    expectContractBody('v1', 'listNetworks', 200, response.body);
    expect(response.body.data).toEqual(enabledNetworks().map(publicNetwork));
  });

  it('returns the listed assets to a signed client', async () => {
    const response = await server.v1.listAssets();
    expect(response.status).toBe(200);
    expectContractBody('v1', 'listAssets', 200, response.body);
    expect(response.body.data).toEqual(listedAssets().map(publicAsset));
    expect(response.body.data.map((a) => a.code)).not.toContain('USDC_TRON');
  });

  it('still requires the signature', async () => {
    const unsigned = new DepositV1Client({ baseUrl: server.url, retry: false });
    const failure = await unsigned.listNetworks().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(401);
  });
});

describe('chain data', () => {
  it('makes addresses of every network in the domain-notes shapes (200 per network and role)', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const chain = chainFor(seed);
        for (const code of networkCodes) {
          for (const role of ['deposit', 'sender'] as const) {
            for (const address of times(200, () => chain.address(code, role))) {
              expect(address, `${code} ${role}`).toMatch(addressShapes[code]);
              // Bech32 only on the chains that use it: a Solana base58 address may start with "bc1" too.
              const bech32 = (code === 'BTC' && address.startsWith('bc1')) || (code === 'LTC' && address.startsWith('ltc1'));
              if (bech32) expect(address).toMatch(bech32Body);
            }
          }
        }
      }),
      { numRuns: 20 },
    );
  });

  it('hands out modern deposit formats: bech32 P2WPKH on BTC / LTC, bounceable EQ on TON', () => {
    const chain = chainFor(1);
    for (const address of times(200, () => chain.address('BTC'))) expect(address).toMatch(/^bc1q[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{38}$/);
    for (const address of times(200, () => chain.address('LTC'))) expect(address).toMatch(/^ltc1q[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{38}$/);
    for (const address of times(200, () => chain.address('TON'))) expect(address).toMatch(/^EQ[A-D]/);
    // Senders vary: every BTC format shows up among 200.
    const senders = times(200, () => chain.address('BTC', 'sender'));
    for (const prefix of ['bc1q', 'bc1p', '1', '3']) expect(senders.some((a) => a.startsWith(prefix)), prefix).toBe(true);
  });

  it('makes transaction hashes of every network in the domain-notes shapes (200 per network)', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const chain = chainFor(seed);
        for (const code of networkCodes) {
          for (const hash of times(200, () => chain.txHash(code))) expect(hash, code).toMatch(hashShapes[code]);
        }
      }),
      { numRuns: 20 },
    );
  });

  it('makes memos only on memo networks, within each chain’s limits (200 per network)', () => {
    fc.assert(
      fc.property(seeds, fc.constantFrom('dp', 'sa', ''), (seed, prefix) => {
        const chain = chainFor(seed);
        for (const n of networks) {
          for (const memo of times(200, () => chain.memo(n.code, prefix))) {
            if (n.memoName === null) {
              expect(memo, n.code).toBeNull();
              continue;
            }
            if (memo === null) throw new Error(`${n.code} made no memo`);
            if (n.memoName === 'destination_tag') {
              expect(memo).toMatch(/^[1-9]\d{0,9}$/);
              expect(Number(memo)).toBeLessThanOrEqual(maxDestinationTag);
            } else {
              expect(memo.length).toBeGreaterThan(0);
              expect(Buffer.byteLength(memo)).toBeLessThanOrEqual(n.memoName === 'memo' ? maxStellarMemoLength : maxTonCommentLength);
              if (prefix !== '') expect(memo.startsWith(`${prefix}-`)).toBe(true);
            }
          }
        }
      }),
      { numRuns: 20 },
    );
    expect(() => chainFor(1).memo('XLM', 'a-prefix-far-too-long-for-stellar')).toThrow();
  });

  it('starts block heights near each network’s reference height', () => {
    const chain = chainFor(3);
    for (const n of networks) {
      for (const height of times(50, () => chain.blockHeight(n.code))) {
        expect(Number.isSafeInteger(height)).toBe(true);
        expect(height).toBeGreaterThanOrEqual(n.referenceHeight);
        expect(height).toBeLessThan(n.referenceHeight + 100_000);
      }
    }
  });

  /** A mixed run of every generator over every network. */
  const sequence = (chain: ChainData): (string | number | null)[] =>
    networkCodes.flatMap((code) => [chain.address(code), chain.address(code, 'sender'), chain.memo(code), chain.txHash(code), chain.blockHeight(code)]);

  it('replays the same values for the same seed', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        expect(sequence(chainFor(seed))).toEqual(sequence(chainFor(seed)));
      }),
      { numRuns: 50 },
    );
  });

  it('gives different values for different seeds', () => {
    fc.assert(
      fc.property(seeds, seeds, (a, b) => {
        fc.pre(a !== b);
        const first = chainFor(a);
        const second = chainFor(b);
        for (const code of networkCodes) {
          expect(first.address(code)).not.toBe(second.address(code));
          expect(first.txHash(code)).not.toBe(second.txHash(code));
        }
      }),
      { numRuns: 50 },
    );
  });
});

function requireAsset(code: string) {
  const asset = findAsset(code);
  if (asset === undefined) throw new Error(`no asset ${code}`);
  return asset;
}
