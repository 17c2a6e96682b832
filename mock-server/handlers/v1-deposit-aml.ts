// The v1 deposit-AML operations: getDepositAml (by uuid) and getDepositAmlByOrderId (the newest
// deposit with the order id, as getDepositByOrderId), scoped to the caller's site (another
// site's deposit is 404), over domain/deposits/deposit-aml.ts.
import type { DepositV1Handlers } from '../../generated/deposit-v1/routes.js';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import type { Site } from '../domain/accounts/sites.js';
import type { DepositRecord } from '../domain/deposits/deposit-records.js';
import { HttpError } from '../http/http-error.js';
import { requestLocals } from '../http/locals.js';
import { v1Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

type DepositAmlOperation = 'getDepositAml' | 'getDepositAmlByOrderId';

export function depositAmlHandlers(sandbox: Sandbox): Pick<DepositV1Handlers, DepositAmlOperation> {
  const amlOf = async (deposit: DepositRecord | undefined) => {
    if (deposit === undefined) throw new HttpError('NOT_FOUND', 'No deposit of this site was found.');
    const { deposits, depositAml } = sandbox.services;
    const aml = depositAml.sync(deposit);
    await deposits.flush();
    return aml;
  };
  return {
    getDepositAml: async (request, context) =>
      v1Success('getDepositAml', context, sandbox.clock, 200, await amlOf(sandbox.services.deposits.get(siteOf(context), request.path.uuid))),
    getDepositAmlByOrderId: async (request, context) =>
      v1Success('getDepositAmlByOrderId', context, sandbox.clock, 200, await amlOf(sandbox.services.deposits.getByOrderId(siteOf(context), request.path.orderId))),
  };
}

function siteOf(context: HandlerContext): Site {
  const site = requestLocals(context.res).site;
  if (site === undefined) throw new Error('a v1 handler ran without an authenticated site');
  return site;
}
