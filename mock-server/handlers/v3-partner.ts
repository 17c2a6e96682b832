// The partner operations: profile, statistics over a period, referrals, referred exchanges and
// payouts (domain/exchange/partner.ts and partner-ledger.ts), each list with the contract's
// sort, in page and cursor modes.
import type { ExchangeV3Handlers } from '../../generated/exchange-v3/routes.js';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import { balance, exchangeView, ledgerOf, referralsOf, referralView, statistics, type LedgerEntry, type ReferralRecord } from '../domain/exchange/partner-ledger.js';
import { payoutView } from '../domain/exchange/partner.js';
import { HttpError } from '../http/http-error.js';
import { requestLocals } from '../http/locals.js';
import { v3Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { listRecords, ListableCollection } from '../store/list-records.js';
import { key } from '../store/sort-keys.js';
import { v3ListRequestOf } from './v3-list-request.js';

type PartnerOperation = 'getPartner' | 'getPartnerStatistics' | 'listPartnerReferrals' | 'listPartnerExchanges' | 'listPartnerPayouts';

export function partnerHandlers(sandbox: Sandbox): Pick<ExchangeV3Handlers, PartnerOperation> {
  const { clock } = sandbox;
  /** The caller's partner account (every client has one, opened when its key was minted). */
  const accountOf = (context: HandlerContext) => {
    const key = requestLocals(context.res).key;
    if (key === undefined) throw new Error(`${context.route.operationId} ran without an authenticated key`);
    return sandbox.services.partners.account(key.client, key.createdAt);
  };

  return {
    getPartner: (_request, context) => {
      const account = accountOf(context);
      const book = sandbox.services.partners;
      return v3Success('getPartner', context, clock, 200, {
        partner: {
          id: account.id,
          name: account.name,
          referral_code: account.referralCode,
          referral_url: book.referralUrl(account),
          commission_percent: account.commissionPercent,
          status: 'active',
          balance: balance(account, ledgerOf(sandbox.services, account), book.payoutsOf(account.clientId)),
          created_at: account.createdAt.toISOString(),
        },
      });
    },

    getPartnerStatistics: (request, context) => {
      const account = accountOf(context);
      const from = request.query['filter[created_from]'];
      const to = request.query['filter[created_to]'];
      const period = { from: from === undefined ? null : new Date(from), to: to === undefined ? null : new Date(to) };
      if (period.from !== null && period.to !== null && period.from >= period.to) {
        throw new HttpError('validation_error', 'The given data was invalid.', { 'query.filter[created_to]': ['must be later than filter[created_from]'] });
      }
      const payouts = sandbox.services.partners.payoutsOf(account.clientId);
      return v3Success('getPartnerStatistics', context, clock, 200, { statistics: statistics(account, ledgerOf(sandbox.services, account), payouts, period) });
    },

    listPartnerReferrals: (request, context) => {
      const referrals = new ListableCollection<ReferralRecord>({ id: key.number((r) => r.id), fields: { registered_at: key.number((r) => r.registeredAt.getTime()) } });
      const listRequest = v3ListRequestOf(request.query, 'listPartnerReferrals', referrals.keys);
      for (const referral of referralsOf(ledgerOf(sandbox.services, accountOf(context)))) referrals.upsert(referral);
      const page = listRecords(referrals, listRequest);
      return v3Success('listPartnerReferrals', context, clock, 200, { referrals: page.items.map(referralView) }, { pagination: page.meta });
    },

    listPartnerExchanges: (request, context) => {
      const exchanges = new ListableCollection<LedgerEntry>({ id: key.number((e) => e.order.id), fields: { created_at: key.number((e) => e.order.createdAt.getTime()) } });
      const listRequest = v3ListRequestOf(request.query, 'listPartnerExchanges', exchanges.keys);
      for (const entry of ledgerOf(sandbox.services, accountOf(context))) exchanges.upsert(entry);
      const page = listRecords(exchanges, listRequest);
      return v3Success('listPartnerExchanges', context, clock, 200, { exchanges: page.items.map(exchangeView) }, { pagination: page.meta });
    },

    listPartnerPayouts: (request, context) => {
      const { payouts } = sandbox.services.partners;
      const listRequest = v3ListRequestOf(request.query, 'listPartnerPayouts', payouts.keys);
      const { clientId } = accountOf(context);
      const page = listRecords(payouts, listRequest, (p) => p.clientId === clientId);
      return v3Success('listPartnerPayouts', context, clock, 200, { payouts: page.items.map(payoutView) }, { pagination: page.meta });
    },
  };
}
