// The asset catalog: each network's native coin and the stablecoin tokens gateways usually take.
// Codes follow the contract's AssetCode rule (a native coin is its ticker, a token is
// <TICKER>_<NETWORK>); contract addresses and decimals are the real mainnet ones (public facts),
// so an integrator's own tables can be checked against the mock. Amounts are decimal strings.
import type { Asset } from '../../../generated/deposit-v1/types.js';
import { findNetwork, type NetworkCode } from './networks.js';

export type TokenStandard = 'TRC20' | 'ERC20' | 'BEP20' | 'SPL' | 'Jetton';

export type AssetDefinition = Readonly<
  Omit<Asset, 'network' | 'tokenStandard'> & {
    network: NetworkCode;
    tokenStandard: TokenStandard | null;
    /** Display name (the AML currency list and logs use it). */
    name: string;
  }
>;

interface NativeSpec {
  ticker: string;
  network: NetworkCode;
  name: string;
  decimals: number;
  minDepositAmount: string;
  minPayoutAmount: string;
  depositEnabled?: boolean;
  payoutEnabled?: boolean;
}

interface TokenSpec extends NativeSpec {
  tokenStandard: TokenStandard;
  contractAddress: string;
}

function native(spec: NativeSpec): AssetDefinition {
  return Object.freeze({
    code: spec.ticker,
    ticker: spec.ticker,
    network: spec.network,
    name: spec.name,
    tokenStandard: null,
    decimals: spec.decimals,
    depositEnabled: spec.depositEnabled ?? true,
    payoutEnabled: spec.payoutEnabled ?? true,
    contractAddress: null,
    minDepositAmount: spec.minDepositAmount,
    minPayoutAmount: spec.minPayoutAmount,
  });
}

function token(spec: TokenSpec): AssetDefinition {
  return Object.freeze({
    code: `${spec.ticker}_${spec.network}`,
    ticker: spec.ticker,
    network: spec.network,
    name: spec.name,
    tokenStandard: spec.tokenStandard,
    decimals: spec.decimals,
    depositEnabled: spec.depositEnabled ?? true,
    payoutEnabled: spec.payoutEnabled ?? true,
    contractAddress: spec.contractAddress,
    minDepositAmount: spec.minDepositAmount,
    minPayoutAmount: spec.minPayoutAmount,
  });
}

const tether = 'Tether USD';
const usdCoin = 'USD Coin';

export const assets: readonly AssetDefinition[] = Object.freeze([
  native({ ticker: 'BTC', network: 'BTC', name: 'Bitcoin', decimals: 8, minDepositAmount: '0.0001', minPayoutAmount: '0.0005' }),
  native({ ticker: 'ETH', network: 'ETH', name: 'Ether', decimals: 18, minDepositAmount: '0.002', minPayoutAmount: '0.01' }),
  native({ ticker: 'TRX', network: 'TRON', name: 'TRON', decimals: 6, minDepositAmount: '5', minPayoutAmount: '20' }),
  native({ ticker: 'BNB', network: 'BSC', name: 'BNB', decimals: 18, minDepositAmount: '0.005', minPayoutAmount: '0.02' }),
  native({ ticker: 'POL', network: 'POLYGON', name: 'POL', decimals: 18, minDepositAmount: '1', minPayoutAmount: '5' }),
  native({ ticker: 'SOL', network: 'SOLANA', name: 'Solana', decimals: 9, minDepositAmount: '0.01', minPayoutAmount: '0.05' }),
  native({ ticker: 'TON', network: 'TON', name: 'Toncoin', decimals: 9, minDepositAmount: '0.5', minPayoutAmount: '1' }),
  native({ ticker: 'LTC', network: 'LTC', name: 'Litecoin', decimals: 8, minDepositAmount: '0.01', minPayoutAmount: '0.05' }),
  native({ ticker: 'DOGE', network: 'DOGE', name: 'Dogecoin', decimals: 8, minDepositAmount: '10', minPayoutAmount: '50' }),
  native({ ticker: 'XRP', network: 'XRP', name: 'XRP', decimals: 6, minDepositAmount: '1', minPayoutAmount: '10' }),
  native({ ticker: 'XLM', network: 'XLM', name: 'Stellar Lumens', decimals: 7, minDepositAmount: '1', minPayoutAmount: '10' }),

  token({ ticker: 'USDT', network: 'TRON', tokenStandard: 'TRC20', name: tether, decimals: 6, contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', minDepositAmount: '1', minPayoutAmount: '10' }),
  // ERC20 gas makes small payouts uneconomic; the contract's example shows payouts off here.
  token({ ticker: 'USDT', network: 'ETH', tokenStandard: 'ERC20', name: tether, decimals: 6, contractAddress: '0xdAC17F958D2ee523a2206206994597C13D831ec7', minDepositAmount: '10', minPayoutAmount: '20', payoutEnabled: false }),
  // Binance-Peg USDT on BSC has 18 decimals, unlike Tether's own 6.
  token({ ticker: 'USDT', network: 'BSC', tokenStandard: 'BEP20', name: tether, decimals: 18, contractAddress: '0x55d398326f99059fF775485246999027B3197955', minDepositAmount: '1', minPayoutAmount: '10' }),
  // Polygon has no marketing name for its token standard; gateways label it ERC20 (it is one).
  token({ ticker: 'USDT', network: 'POLYGON', tokenStandard: 'ERC20', name: tether, decimals: 6, contractAddress: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', minDepositAmount: '1', minPayoutAmount: '10' }),
  token({ ticker: 'USDT', network: 'SOLANA', tokenStandard: 'SPL', name: tether, decimals: 6, contractAddress: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', minDepositAmount: '1', minPayoutAmount: '10' }),
  token({ ticker: 'USDT', network: 'TON', tokenStandard: 'Jetton', name: tether, decimals: 6, contractAddress: 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs', minDepositAmount: '1', minPayoutAmount: '10' }),
  token({ ticker: 'USDC', network: 'ETH', tokenStandard: 'ERC20', name: usdCoin, decimals: 6, contractAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', minDepositAmount: '10', minPayoutAmount: '20' }),
  token({ ticker: 'USDC', network: 'SOLANA', tokenStandard: 'SPL', name: usdCoin, decimals: 6, contractAddress: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', minDepositAmount: '1', minPayoutAmount: '10' }),
  // Circle discontinued USDC on TRON in 2024: known to the catalog (a lookup finds it) but
  // neither deposits nor payouts, so listAssets leaves it out.
  token({ ticker: 'USDC', network: 'TRON', tokenStandard: 'TRC20', name: usdCoin, decimals: 6, contractAddress: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8', minDepositAmount: '1', minPayoutAmount: '10', depositEnabled: false, payoutEnabled: false }),
]);

const byCode = new Map<string, AssetDefinition>(assets.map((a) => [a.code, a]));

/** The asset with this code, listed or not; undefined for an unknown code. */
export function findAsset(code: string): AssetDefinition | undefined {
  return byCode.get(code);
}

/** An asset is listed when its network is enabled and it takes deposits or payouts. */
export function isListed(asset: AssetDefinition, networkEnabled: (code: NetworkCode) => boolean = defaultNetworkEnabled): boolean {
  return networkEnabled(asset.network) && (asset.depositEnabled || asset.payoutEnabled);
}

/** What listAssets shows: the listed assets, in catalog order. */
export function listedAssets(catalog: readonly AssetDefinition[] = assets, networkEnabled?: (code: NetworkCode) => boolean): AssetDefinition[] {
  return catalog.filter((a) => isListed(a, networkEnabled));
}

/** The asset a deposit can be created for: known, listed and taking deposits. */
export function depositableAsset(code: string): AssetDefinition | undefined {
  const asset = byCode.get(code);
  return asset !== undefined && isListed(asset) && asset.depositEnabled ? asset : undefined;
}

/** The contract's Asset: the public fields only. */
export function publicAsset(a: AssetDefinition): Asset {
  return {
    code: a.code,
    ticker: a.ticker,
    network: a.network,
    tokenStandard: a.tokenStandard,
    decimals: a.decimals,
    depositEnabled: a.depositEnabled,
    payoutEnabled: a.payoutEnabled,
    contractAddress: a.contractAddress,
    minDepositAmount: a.minDepositAmount,
    minPayoutAmount: a.minPayoutAmount,
  };
}

function defaultNetworkEnabled(code: NetworkCode): boolean {
  return findNetwork(code)?.enabled === true;
}
