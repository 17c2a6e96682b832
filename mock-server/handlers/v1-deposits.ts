// The v1 deposit operations over the sandbox's DepositService: createDeposit (idempotent by
// site, order_id and asset; X-Idempotency-Key is the platform's), getDeposit and
// getDepositByOrderId (scoped to the caller's site), listDeposits (page or keyset cursor, newest
// first) and refreshDeposit (once per 30 s per deposit).
import type { DepositV1Handlers } from '../../generated/deposit-v1/routes.js';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import type { Site } from '../domain/accounts/sites.js';
import { depositableAsset } from '../domain/deposits/assets.js';
import { compareAmounts, fractionDigits } from '../decimal.js';
import { BY_SITE, defaultLifetimeSeconds, refreshIntervalSeconds } from '../domain/deposits/deposit-service.js';
import { HttpError } from '../http/http-error.js';
import { requestLocals } from '../http/locals.js';
import { v1Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { listContract } from '../store/list-contract.js';
import { v1ListRequest } from '../store/list-query.js';
import { splicedList } from './spliced.js';

type DepositOperation = 'createDeposit' | 'getDeposit' | 'getDepositByOrderId' | 'listDeposits' | 'refreshDeposit';

/** The fixed order of the history: newest first (createdAt, then uuid, descending). */
const historyOrder = ['-createdAt'] as const;

export function depositHandlers(sandbox: Sandbox): Pick<DepositV1Handlers, DepositOperation> {
  const { clock } = sandbox;
  const notFound = () => new HttpError('NOT_FOUND', 'No deposit of this site was found.');

  return {
    createDeposit: async (request, context) => {
      const site = siteOf(context);
      const body = request.body;
      const asset = depositableAsset(body.asset);
      if (asset === undefined) {
        throw new HttpError('VALIDATION_ERROR', 'The given data was invalid.', { 'body.asset': [`${body.asset} is not an asset that takes deposits`] });
      }
      const amount = body.amount ?? null;
      if (amount !== null) {
        const problems: string[] = [];
        if (compareAmounts(amount, asset.minDepositAmount) < 0) problems.push(`must be at least ${asset.minDepositAmount} ${asset.code}`);
        if (fractionDigits(amount) > asset.decimals) problems.push(`has more than ${asset.decimals} decimals`);
        if (problems.length > 0) throw new HttpError('VALIDATION_ERROR', 'The given data was invalid.', { 'body.amount': problems });
      }
      const service = sandbox.services.deposits;
      const { deposit } = service.create(site, {
        orderId: body.order_id,
        asset,
        amount,
        lifetimeSeconds: body.lifetime ?? defaultLifetimeSeconds,
      });
      await service.flush();
      return v1Success('createDeposit', context, clock, 201, service.view(deposit));
    },

    getDeposit: async (request, context) => {
      const service = sandbox.services.deposits;
      const deposit = service.get(siteOf(context), request.path.uuid);
      if (deposit === undefined) throw notFound();
      await service.flush();
      return v1Success('getDeposit', context, clock, 200, service.view(deposit));
    },

    getDepositByOrderId: async (request, context) => {
      const service = sandbox.services.deposits;
      const deposit = service.getByOrderId(siteOf(context), request.path.orderId);
      if (deposit === undefined) throw notFound();
      await service.flush();
      return v1Success('getDepositByOrderId', context, clock, 200, service.view(deposit));
    },

    listDeposits: async (request, context) => {
      const site = siteOf(context);
      const service = sandbox.services.deposits;
      const built = v1ListRequest(request.query, listContract('v1', 'listDeposits'), historyOrder, service.records.keys);
      if (!built.ok) throw new HttpError('VALIDATION_ERROR', 'The given data was invalid.', built.details);
      // Deposits whose time-driven transitions fell due are settled first (only those: a queue).
      service.tick();
      await service.flush();
      const page = service.list(built.request, BY_SITE, site.id);
      return v1Success('listDeposits', context, clock, 200, splicedList(page.items.map((d) => service.listedView(d))), { ...page.meta });
    },

    refreshDeposit: async (request, context) => {
      const service = sandbox.services.deposits;
      const deposit = service.get(siteOf(context), request.path.uuid);
      if (deposit === undefined) throw notFound();
      const outcome = service.refresh(deposit);
      await service.flush();
      if (!outcome.ok) {
        throw new HttpError('RATE_LIMITED', `This deposit was refreshed less than ${refreshIntervalSeconds} seconds ago.`, undefined, {
          'Retry-After': String(outcome.retryAfterSeconds),
        });
      }
      return v1Success('refreshDeposit', context, clock, 200, service.view(outcome.deposit));
    },
  };
}

function siteOf(context: HandlerContext): Site {
  const site = requestLocals(context.res).site;
  if (site === undefined) throw new Error('a v1 handler ran without an authenticated site');
  return site;
}
