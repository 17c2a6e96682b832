// Partner (referral) accounts. Every API client is a partner: the exchanges it creates through
// the API are its referred exchanges, and its customers (the distinct e-mails of its orders) its
// referrals (partner-ledger.ts computes both from the orders). The account keeps what orders do
// not hold: its code, commission, and payouts of the balance. The default client starts with a
// seeded history from before the sandbox started: earlier earnings and payouts (paid, rejected
// and one pending), so the payouts list shows something at once. A reset seeds it again; a
// snapshot replaces accounts and payouts (an account's name and code come from its client).
import type { PartnerPayout } from '../../../generated/exchange-v3/types.js';
import type { SandboxStateExchangePartners } from '../../../generated/sandbox-control/types.js';
import type { Clock } from '../../clock.js';
import type { Random } from '../../random.js';
import { ListableCollection } from '../../store/list-records.js';
import { key } from '../../store/sort-keys.js';
import type { Client } from '../accounts/api-keys.js';
import { createChainData } from '../deposits/chain-data.js';
import { add, formatDecimal, parseDecimal, type Decimal } from '../../decimal.js';
import { requireOneOf, StateRejected } from '../state-rejected.js';
import { v3Enum } from './contract-enums.js';
import { requireNextIdAbove } from './restore-checks.js';
import type { RecordMarks } from '../record-marks.js';

/** The partner balance currency (PartnerMoney.currency) and its precision. */
export const partnerCurrency = { code: 'USDT', decimals: 2 };
/** Share of the exchanger's fee paid to the partner, in percent. */
const commissionPercent = '20';
const referralBase = 'https://exchange.example.org/?ref=';

export interface PartnerAccount {
  clientId: string;
  id: number;
  name: string;
  referralCode: string;
  commissionPercent: string;
  createdAt: Date;
  /** Earned before the sandbox started (the seeded history), in the partner currency. */
  openingEarned: string;
}

export interface PayoutRecord {
  id: number;
  clientId: string;
  amount: string;
  status: PartnerPayout['status'];
  requisite: string;
  createdAt: Date;
  paidAt: Date | null;
}

const day = 24 * 3600 * 1000;
const payoutStatuses = v3Enum<PayoutRecord['status']>('PartnerPayout', 'status');

export class PartnerBook {
  /** Every partner's payouts; the sort field is the contract's PartnerPayoutSort field. */
  readonly payouts = new ListableCollection<PayoutRecord>({ id: key.number((p) => p.id), fields: { created_at: key.number((p) => p.createdAt.getTime()) } });
  private readonly accounts = new Map<string, PartnerAccount>();
  private nextPayoutId = 1;

  constructor(
    private readonly clock: Clock,
    private readonly marks: RecordMarks,
  ) {}

  /** The client's partner account, opened when first asked for. */
  account(client: Client, openedAt: Date): PartnerAccount {
    const clientId = String(client.id);
    let account = this.accounts.get(clientId);
    if (account === undefined) {
      account = newAccount(client, { commissionPercent, createdAt: openedAt, openingEarned: '0' });
      this.accounts.set(clientId, account);
      this.marks.changed('partnerAccount', clientId);
    }
    return account;
  }

  /** The accounts and payouts as a snapshot holds them; `withRecords` false: both left out (a journal's header). */
  exportState(withRecords = true): SandboxStateExchangePartners {
    return {
      nextPayoutId: this.nextPayoutId,
      accounts: withRecords ? [...this.accounts.values()].map(accountState) : [],
      payouts: withRecords ? [...this.payouts.values()].map(payoutState) : [],
    };
  }

  /** One partner account, by client id, as exportState lists it; undefined when there is none. */
  exportAccount(clientId: string): SandboxStatePartnerAccount | undefined {
    const account = this.accounts.get(clientId);
    return account === undefined ? undefined : accountState(account);
  }

  /** One payout as exportState lists it; undefined when there is none. */
  exportPayout(id: string): SandboxStatePartnerPayout | undefined {
    const payout = this.payouts.get(Number(id));
    return payout === undefined ? undefined : payoutState(payout);
  }

  /**
   * Replaces the accounts and payouts with the snapshot's; throws StateRejected for an unknown
   * client (`clientOf` resolves one), a client with two accounts, a duplicate payout id or a
   * payout status the v3 contract lacks.
   */
  restoreState(state: SandboxStateExchangePartners, clientOf: (clientId: string, pointer: string) => Client, pointer: string): void {
    this.accounts.clear();
    this.payouts.clear();
    state.accounts.forEach(({ clientId, createdAtMs, ...terms }, index) => {
      const at = `${pointer}/accounts/${index}/clientId`;
      const client = clientOf(clientId, at);
      if (this.accounts.has(clientId)) throw new StateRejected(at, `client ${clientId} has another account`);
      this.accounts.set(clientId, newAccount(client, { ...terms, createdAt: new Date(createdAtMs) }));
    });
    state.payouts.forEach(({ createdAtMs, paidAtMs, ...payout }, index) => {
      const at = `${pointer}/payouts/${index}`;
      if (this.payouts.get(payout.id) !== undefined) throw new StateRejected(`${at}/id`, `payout ${payout.id} is listed twice`);
      clientOf(payout.clientId, `${at}/clientId`);
      const status = requireOneOf(payout.status, payoutStatuses, `${at}/status`);
      this.payouts.upsert({ ...payout, status, createdAt: new Date(createdAtMs), paidAt: paidAtMs === null ? null : new Date(paidAtMs) });
    });
    requireNextIdAbove(state.nextPayoutId, state.payouts, `${pointer}/nextPayoutId`);
    this.nextPayoutId = state.nextPayoutId;
  }

  referralUrl(account: PartnerAccount): string {
    return `${referralBase}${account.referralCode}`;
  }

  /** A half-year of history for the client: payouts every few weeks and the earnings they came from. */
  seedHistory(client: Client, random: Random): void {
    const now = this.clock.nowMs();
    const account = this.account(client, new Date(now - 200 * day));
    const wallet = createChainData(random).address('TRON');
    let owed: Decimal = parseDecimal('0');
    for (let age = 180; age > 7; age -= random.int(20, 35)) {
      const createdAt = new Date(now - age * day);
      const status: PayoutRecord['status'] = random.next() < 0.15 ? 'rejected' : 'paid';
      const amount = randomMoney(random, 20, 300);
      this.addPayout({ clientId: account.clientId, amount, status, requisite: wallet, createdAt, paidAt: status === 'paid' ? new Date(createdAt.getTime() + random.int(1, 6) * 3600_000) : null });
      if (status === 'paid') owed = add(owed, parseDecimal(amount));
    }
    const pending = randomMoney(random, 20, 80);
    this.addPayout({ clientId: account.clientId, amount: pending, status: 'pending', requisite: wallet, createdAt: new Date(now - 2 * day), paidAt: null });
    // Earned enough for every payout not rejected, and a remainder still on the balance.
    account.openingEarned = formatDecimal(add(add(owed, parseDecimal(pending)), parseDecimal(randomMoney(random, 5, 60))));
    this.marks.changed('partnerAccount', account.clientId);
  }

  private addPayout(payout: Omit<PayoutRecord, 'id'>): void {
    this.payouts.upsert({ ...payout, id: this.nextPayoutId });
    this.marks.changed('payout', String(this.nextPayoutId));
    this.nextPayoutId += 1;
  }

  payoutsOf(clientId: string): PayoutRecord[] {
    return [...this.payouts.values()].filter((p) => p.clientId === clientId);
  }
}

type SandboxStatePartnerAccount = SandboxStateExchangePartners['accounts'][number];
type SandboxStatePartnerPayout = SandboxStateExchangePartners['payouts'][number];

function accountState(a: PartnerAccount): SandboxStatePartnerAccount {
  return { clientId: a.clientId, commissionPercent: a.commissionPercent, createdAtMs: a.createdAt.getTime(), openingEarned: a.openingEarned };
}

function payoutState({ createdAt, paidAt, ...payout }: PayoutRecord): SandboxStatePartnerPayout {
  return { ...payout, createdAtMs: createdAt.getTime(), paidAtMs: paidAt?.getTime() ?? null };
}

/** The account of a client, on the given terms; its name and referral code are the client's. */
function newAccount(client: Client, terms: Pick<PartnerAccount, 'commissionPercent' | 'createdAt' | 'openingEarned'>): PartnerAccount {
  return {
    clientId: String(client.id),
    id: client.id,
    name: client.name,
    referralCode: `${client.name.replace(/[^A-Za-z0-9]/g, '').slice(0, 24).toUpperCase()}${client.id}`,
    ...terms,
  };
}

/** An amount of the partner currency between whole `min` and `max`, with cents. */
function randomMoney(random: Random, min: number, max: number): string {
  return formatDecimal({ units: BigInt(random.int(min * 100, max * 100)), scale: partnerCurrency.decimals });
}

export function payoutView(payout: PayoutRecord): PartnerPayout {
  return {
    id: payout.id,
    amount: payout.amount,
    currency: partnerCurrency.code,
    status: payout.status,
    requisite: payout.requisite,
    created_at: payout.createdAt.toISOString(),
    paid_at: payout.paidAt?.toISOString() ?? null,
  };
}
