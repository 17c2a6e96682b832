// The v1 deposit-AML operations: getDepositAml (by uuid) and getDepositAmlByOrderId (the newest
// deposit with the order id, as getDepositByOrderId), scoped to the caller's site (another
// site's deposit is 404), over domain/deposits/deposit-aml.ts.
import type { DepositV1Handlers, UncheckedHandlers } from '../../generated/deposit-v1/routes.js';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import type { Site } from '../domain/accounts/sites.js';
import type { DepositRecord } from '../domain/deposits/deposit-records.js';
import { HttpError } from '../http/http-error.js';
import { requestLocals } from '../http/locals.js';
import { respond } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

type DepositAmlOperation = 'getDepositAml' | 'getDepositAmlByOrderId';

export function depositAmlHandlers(sandbox: Sandbox): Pick<UncheckedHandlers<DepositV1Handlers>, DepositAmlOperation> {
  const answer = async (deposit: DepositRecord | undefined, context: HandlerContext) => {
    if (deposit === undefined) throw new HttpError('NOT_FOUND', 'No deposit of this site was found.');
    const { deposits, depositAml } = sandbox.services;
    const aml = depositAml.sync(deposit);
    await deposits.flush();
    return respond(context, sandbox.clock, 200, aml);
  };
  return {
    getDepositAml: (request, context) => answer(sandbox.services.deposits.get(siteOf(context), request.path.uuid), context),
    getDepositAmlByOrderId: (request, context) => answer(sandbox.services.deposits.getByOrderId(siteOf(context), request.path.orderId), context),
  };
}

function siteOf(context: HandlerContext): Site {
  const site = requestLocals(context.res).site;
  if (site === undefined) throw new Error('a v1 handler ran without an authenticated site');
  return site;
}
