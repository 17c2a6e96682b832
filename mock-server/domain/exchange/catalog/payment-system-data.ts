// The payment systems the simulated exchanger works with: crypto on several networks (the
// deposit gateway's networks, mock-server/domain/deposits/networks.ts), bank cards, bank
// transfers and e-money. Rates-file codes follow the BestChange convention (docs/domain-notes.md:
// `BTC`, `USDTTRC20`, `CARDRUB`, `WIREEUR`). Reference prices are plain USD prices of late 2026
// magnitude; the seed varies reserves, fees, spreads and limits around them (catalog-seed.ts).
import type { NetworkCode } from '../../deposits/networks.js';

export type PaymentKind = 'crypto' | 'card' | 'bank' | 'emoney';

export interface PaymentSystemSpec {
  /** Rates-file code (`codes.letter`). */
  letter: string;
  short: string;
  name: string;
  /** The brand (`payment`): systems of one brand share its id. */
  payment: { name: string; logo: string };
  /** The currency (`currency`): systems in one currency share its id. */
  currency: { code: string; sign: string };
  kind: PaymentKind;
  /** Network of deposits and payouts; null for fiat. */
  network: NetworkCode | null;
  /** `precision.amount_decimal`: digits amounts on this side are rounded to. */
  decimals: number;
  /** Reference price in USD. */
  usdPrice: string;
  /** Payouts in this system are suspended: routes to it exist but are disabled. */
  payoutsSuspended?: string;
  /** Range the seed draws this system's reserve from, in its own units. */
  reserve: readonly [number, number];
  /**
   * Bank and e-money systems: the account format clients give (with an example of one, which
   * the route capabilities publish), and the exchanger's own account they pay to.
   */
  account?: { pattern: RegExp; format: string; example: string; exchanger: string };
}

const tether = { name: 'Tether', logo: 'tether.svg' };
const visaMastercard = (code: string, sign: string): Pick<PaymentSystemSpec, 'payment' | 'currency' | 'kind' | 'network' | 'decimals'> => ({
  payment: { name: 'Visa/Mastercard', logo: 'visa-mastercard.svg' },
  currency: { code, sign },
  kind: 'card',
  network: null,
  decimals: 2,
});

export const paymentSystemSpecs: readonly PaymentSystemSpec[] = Object.freeze([
  { letter: 'BTC', short: 'btc', name: 'Bitcoin BTC', payment: { name: 'Bitcoin', logo: 'bitcoin.svg' }, currency: { code: 'BTC', sign: '₿' }, kind: 'crypto', network: 'BTC', decimals: 8, usdPrice: '97250', reserve: [18, 60] },
  { letter: 'ETH', short: 'eth', name: 'Ethereum ETH', payment: { name: 'Ethereum', logo: 'ethereum.svg' }, currency: { code: 'ETH', sign: 'Ξ' }, kind: 'crypto', network: 'ETH', decimals: 8, usdPrice: '3380', reserve: [300, 900] },
  { letter: 'USDTTRC20', short: 'usdt', name: 'Tether USDT TRC20', payment: tether, currency: { code: 'USDT', sign: '₮' }, kind: 'crypto', network: 'TRON', decimals: 6, usdPrice: '1', reserve: [250_000, 900_000] },
  { letter: 'USDTERC20', short: 'usdt', name: 'Tether USDT ERC20', payment: tether, currency: { code: 'USDT', sign: '₮' }, kind: 'crypto', network: 'ETH', decimals: 6, usdPrice: '1', reserve: [100_000, 400_000] },
  { letter: 'LTC', short: 'ltc', name: 'Litecoin LTC', payment: { name: 'Litecoin', logo: 'litecoin.svg' }, currency: { code: 'LTC', sign: 'Ł' }, kind: 'crypto', network: 'LTC', decimals: 8, usdPrice: '96.4', reserve: [1_500, 6_000] },
  { letter: 'XRP', short: 'xrp', name: 'Ripple XRP', payment: { name: 'Ripple', logo: 'xrp.svg' }, currency: { code: 'XRP', sign: 'XRP' }, kind: 'crypto', network: 'XRP', decimals: 6, usdPrice: '1.12', reserve: [150_000, 500_000] },
  { letter: 'TON', short: 'ton', name: 'Toncoin TON', payment: { name: 'Toncoin', logo: 'toncoin.svg' }, currency: { code: 'TON', sign: 'TON' }, kind: 'crypto', network: 'TON', decimals: 8, usdPrice: '5.42', reserve: [20_000, 80_000] },
  { letter: 'DOGE', short: 'doge', name: 'Dogecoin DOGE', payment: { name: 'Dogecoin', logo: 'dogecoin.svg' }, currency: { code: 'DOGE', sign: 'Ð' }, kind: 'crypto', network: 'DOGE', decimals: 8, usdPrice: '0.165', reserve: [200_000, 900_000], payoutsSuspended: 'Dogecoin payouts are suspended for wallet maintenance.' },
  { letter: 'CARDRUB', short: 'cardrub', name: 'Visa/Mastercard RUB', ...visaMastercard('RUB', '₽'), usdPrice: '0.0106', reserve: [5_000_000, 25_000_000] },
  { letter: 'CARDUSD', short: 'cardusd', name: 'Visa/Mastercard USD', ...visaMastercard('USD', '$'), usdPrice: '1', reserve: [50_000, 200_000] },
  { letter: 'CARDEUR', short: 'cardeur', name: 'Visa/Mastercard EUR', ...visaMastercard('EUR', '€'), usdPrice: '1.08', reserve: [40_000, 180_000] },
  { letter: 'WIREEUR', short: 'sepaeur', name: 'SEPA transfer EUR', payment: { name: 'SEPA', logo: 'sepa.svg' }, currency: { code: 'EUR', sign: '€' }, kind: 'bank', network: null, decimals: 2, usdPrice: '1.08', reserve: [200_000, 800_000], account: { pattern: /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/, format: 'an IBAN', example: 'GB33BUKB20201555555555', exchanger: 'DE89370400440532013000' } },
  { letter: 'WIREUSD', short: 'swiftusd', name: 'SWIFT transfer USD', payment: { name: 'SWIFT', logo: 'swift.svg' }, currency: { code: 'USD', sign: '$' }, kind: 'bank', network: null, decimals: 2, usdPrice: '1', reserve: [200_000, 800_000], account: { pattern: /^[0-9]{6,17}$/, format: 'a bank account number of 6 to 17 digits', example: '9876543210', exchanger: '4417102937' } },
  { letter: 'PMUSD', short: 'pmusd', name: 'Perfect Money USD', payment: { name: 'Perfect Money', logo: 'perfect-money.svg' }, currency: { code: 'USD', sign: '$' }, kind: 'emoney', network: null, decimals: 2, usdPrice: '1', reserve: [20_000, 120_000], account: { pattern: /^U[0-9]{7,8}$/, format: 'a Perfect Money account (U and 7 or 8 digits)', example: 'U1234567', exchanger: 'U40128855' } },
  { letter: 'PRUSD', short: 'prusd', name: 'Payeer USD', payment: { name: 'Payeer', logo: 'payeer.svg' }, currency: { code: 'USD', sign: '$' }, kind: 'emoney', network: null, decimals: 2, usdPrice: '1', reserve: [20_000, 120_000], account: { pattern: /^P[0-9]{7,10}$/, format: 'a Payeer account (P and 7 to 10 digits)', example: 'P1000000001', exchanger: 'P1043385772' } },
  { letter: 'ADVCUSD', short: 'advcusd', name: 'AdvCash USD', payment: { name: 'AdvCash', logo: 'advcash.svg' }, currency: { code: 'USD', sign: '$' }, kind: 'emoney', network: null, decimals: 2, usdPrice: '1', reserve: [20_000, 120_000], account: { pattern: /^U[0-9]{12}$/, format: 'an AdvCash wallet (U and 12 digits)', example: 'U987654321098', exchanger: 'U512345678901' } },
]);

/**
 * Which pairs are routes: every crypto to every other crypto (networks of one coin included,
 * USDT TRC20 → ERC20), every crypto to every fiat system, and fiat to the liquid coins only.
 */
export function isRoutePair(from: PaymentSystemSpec, to: PaymentSystemSpec): boolean {
  if (from.letter === to.letter) return false;
  if (from.kind === 'crypto') return true;
  return to.kind === 'crypto' && fiatBuys.has(to.letter);
}

const fiatBuys = new Set(['BTC', 'ETH', 'USDTTRC20', 'USDTERC20', 'LTC']);
