// The v1 static-address operations over the sandbox's StaticAddressService: createStaticAddress
// (idempotent by orderId; another asset under the same orderId is a 409 IDEMPOTENCY_CONFLICT),
// getStaticAddress / getStaticAddressByOrderId (scoped to the caller's site), listStaticAddresses
// and listStaticAddressPayments (page or keyset cursor, newest first).
import type { DepositV1Handlers } from '../../generated/deposit-v1/routes.js';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import type { Site } from '../domain/accounts/sites.js';
import { depositableAsset } from '../domain/deposits/assets.js';
import { BY_STATIC_ADDRESS, BY_SITE } from '../domain/deposits/deposit-service.js';
import type { StaticAddressRecord } from '../domain/deposits/static-address-service.js';
import { HttpError } from '../http/http-error.js';
import { requestLocals } from '../http/locals.js';
import { v1Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { listContract } from '../store/list-contract.js';
import { v1ListRequest } from '../store/list-query.js';
import { filterPredicate, listRecords, match } from '../store/list-records.js';

type StaticAddressOperation = 'createStaticAddress' | 'getStaticAddress' | 'getStaticAddressByOrderId' | 'listStaticAddresses' | 'listStaticAddressPayments';

/** Newest first (createdAt, then uuid, descending), as for listDeposits. */
const newestFirst = ['-createdAt'] as const;

export function staticAddressHandlers(sandbox: Sandbox): Pick<DepositV1Handlers, StaticAddressOperation> {
  const { clock } = sandbox;
  const notFound = () => new HttpError('NOT_FOUND', 'No static address of this site was found.');
  const invalid = (details: Record<string, string[]>) => new HttpError('VALIDATION_ERROR', 'The given data was invalid.', details);

  return {
    createStaticAddress: (request, context) => {
      const site = siteOf(context);
      const body = request.body;
      const asset = depositableAsset(body.asset);
      if (asset === undefined) throw invalid({ 'body.asset': [`${body.asset} is not an asset that takes deposits`] });
      const outcome = sandbox.services.staticAddresses.create(site, body.orderId, asset);
      if (!outcome.ok) {
        throw new HttpError('IDEMPOTENCY_CONFLICT', `The orderId ${body.orderId} already names a static address for ${outcome.existing.asset}.`);
      }
      return v1Success('createStaticAddress', context, clock, 201, sandbox.services.staticAddresses.view(outcome.address));
    },

    getStaticAddress: (request, context) => {
      const service = sandbox.services.staticAddresses;
      const record = service.get(siteOf(context), request.path.uuid);
      if (record === undefined) throw notFound();
      return v1Success('getStaticAddress', context, clock, 200, service.view(record));
    },

    getStaticAddressByOrderId: (request, context) => {
      const service = sandbox.services.staticAddresses;
      const record = service.getByOrderId(siteOf(context), request.path.orderId);
      if (record === undefined) throw notFound();
      return v1Success('getStaticAddressByOrderId', context, clock, 200, service.view(record));
    },

    listStaticAddresses: (request, context) => {
      const site = siteOf(context);
      const service = sandbox.services.staticAddresses;
      const built = v1ListRequest(request.query, listContract('v1', 'listStaticAddresses'), newestFirst, service.collection.keys);
      if (!built.ok) throw invalid(built.details);
      const filters = filterPredicate<StaticAddressRecord>(built.request.filters, { status: match.oneOf((a) => a.status) });
      const page = listRecords(service.collection, built.request, filters, { partition: BY_SITE, key: site.id });
      return v1Success('listStaticAddresses', context, clock, 200, page.items.map((a) => service.view(a)), { ...page.meta });
    },

    listStaticAddressPayments: async (request, context) => {
      const site = siteOf(context);
      const service = sandbox.services.staticAddresses;
      const record = service.get(site, request.path.uuid);
      if (record === undefined) throw notFound();
      const deposits = service.deposits;
      const built = v1ListRequest(request.query, listContract('v1', 'listStaticAddressPayments'), newestFirst, deposits.records.keys);
      if (!built.ok) throw invalid(built.details);
      deposits.tick();
      await deposits.flush();
      const page = deposits.list(built.request, BY_STATIC_ADDRESS, record.uuid);
      return v1Success('listStaticAddressPayments', context, clock, 200, page.items.map((d) => deposits.view(d)), { ...page.meta });
    },
  };
}

function siteOf(context: HandlerContext): Site {
  const site = requestLocals(context.res).site;
  if (site === undefined) throw new Error('a v1 handler ran without an authenticated site');
  return site;
}
