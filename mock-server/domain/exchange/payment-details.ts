// Where the client pays for an order: a fresh deposit address on the give side's network (and
// the memo of memo networks), shaped like the real chain's (deposits/chain-data.ts), or on a fiat
// give side the exchanger's card or account. Drawn from a stream of its own, so a seed replays
// the same addresses for the same orders.
import type { SandboxStateExchangePaymentDetails } from '../../../generated/sandbox-control/types.js';
import { createRandom, type Random } from '../../random.js';
import { flatString } from '../../store/flat-string.js';
import { createChainData, type ChainData } from '../deposits/chain-data.js';
import { StateRejected } from '../state-rejected.js';
import type { RouteRecord } from './catalog/catalog-records.js';
import { passesLuhn } from './catalog/requisite-formats.js';

export interface PaymentDetails {
  /** The give side's network code (the deposit API's); null for fiat. */
  network: string | null;
  address: string | null;
  memo: string | null;
  account: string | null;
  amount: string;
  currency: string;
}

export class PaymentDetailsSource {
  private chain: ChainData;
  /** The exchanger's receiving card per payment system, drawn once. */
  private readonly cards = new Map<number, string>();

  constructor(private random: Random) {
    this.chain = createChainData(random);
  }

  exportState(): SandboxStateExchangePaymentDetails {
    return { random: this.random.state(), cards: [...this.cards].map(([paymentSystemId, number]) => ({ paymentSystemId, number })) };
  }

  /** Replaces the drawn cards and resumes the stream; `isCardSystem` tells a card payment system's id. */
  restoreState(state: SandboxStateExchangePaymentDetails, isCardSystem: (id: number) => boolean, pointer: string): void {
    this.cards.clear();
    state.cards.forEach(({ paymentSystemId, number }, index) => {
      const at = `${pointer}/cards/${index}/paymentSystemId`;
      if (!isCardSystem(paymentSystemId)) throw new StateRejected(at, `${paymentSystemId} is not a card payment system`);
      if (this.cards.has(paymentSystemId)) throw new StateRejected(at, `payment system ${paymentSystemId} has a card already`);
      this.cards.set(paymentSystemId, number);
    });
    this.random = createRandom(this.random.seed, state.random);
    this.chain = createChainData(this.random);
  }

  forRoute(route: RouteRecord, amount: string): PaymentDetails {
    const { spec } = route.from;
    // Kept with every order: flat strings (a drawn address is a tree of pieces) and every field
    // in one literal (a spread would put some of them out of the object, in a property array).
    if (spec.network !== null) {
      const memo = this.chain.memo(spec.network, 'ex');
      return { network: spec.network, address: flatString(this.chain.address(spec.network)), memo: memo === null ? null : flatString(memo), account: null, amount, currency: spec.letter };
    }
    const account = spec.kind === 'card' ? this.cardOf(route.from.id) : (spec.account?.exchanger ?? null);
    return { network: null, address: null, memo: null, account, amount, currency: spec.letter };
  }

  private cardOf(systemId: number): string {
    let card = this.cards.get(systemId);
    if (card === undefined) {
      // A Visa-shaped number with a valid Luhn digit.
      const body = `4${this.random.string(14, '0123456789')}`;
      card = `${body}${[...'0123456789'].find((digit) => passesLuhn(`${body}${digit}`))}`;
      this.cards.set(systemId, card);
    }
    return card;
  }
}
