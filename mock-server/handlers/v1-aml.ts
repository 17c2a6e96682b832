// The v1 AML operations (description: AML screening): listAmlCurrencies (the simulated
// provider's allowlist), createAmlCheck and getAmlCheck over domain/aml. Repeats with the same
// X-Idempotency-Key are answered by the platform's idempotency step and never reach these
// handlers, so they send nothing to the provider. The deposit-AML operations live with deposits.
import type { AmlCheck, AmlCurrency } from '../../generated/deposit-v1/types.js';
import type { DepositV1Handlers } from '../../generated/deposit-v1/routes.js';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import type { Site } from '../domain/accounts/sites.js';
import type { AmlCheckRecord } from '../domain/aml/aml-checks.js';
import { HttpError } from '../http/http-error.js';
import { requestLocals } from '../http/locals.js';
import { v1Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

type AmlOperation = 'listAmlCurrencies' | 'createAmlCheck' | 'getAmlCheck';

export function amlHandlers(sandbox: Sandbox): Pick<DepositV1Handlers, AmlOperation> {
  return {
    listAmlCurrencies: (_request, context) => {
      const currencies: AmlCurrency[] = sandbox.services.aml.provider.currencies().map((c) => ({ code: c.code, network: c.network, name: c.name }));
      return v1Success('listAmlCurrencies', context, sandbox.clock, 200, currencies);
    },
    createAmlCheck: (request, context) => {
      const body = request.body;
      const type = body.type ?? 'address';
      const check = sandbox.services.aml.create(siteOf(context).id, {
        type,
        currency: body.currency,
        network: body.network,
        address: body.address,
        txHash: type === 'transaction' ? (body.txHash ?? null) : null,
      });
      return v1Success('createAmlCheck', context, sandbox.clock, 201, publicCheck(check));
    },
    getAmlCheck: (request, context) => {
      const check = sandbox.services.aml.get(siteOf(context).id, request.path.uuid);
      if (check === undefined) throw new HttpError('NOT_FOUND', 'No AML check of this site has this uuid.');
      return v1Success('getAmlCheck', context, sandbox.clock, 200, publicCheck(check));
    },
  };
}

export function publicCheck(c: AmlCheckRecord): AmlCheck {
  return {
    uuid: c.uuid,
    type: c.type,
    currency: c.currency,
    network: c.network,
    address: c.address,
    txHash: c.txHash,
    status: c.status,
    riskScore: c.riskScore,
    riskLevel: c.riskLevel,
    provider: c.provider,
    reason: c.reason,
    createdAt: c.createdAt.toISOString(),
    checkedAt: c.checkedAt?.toISOString() ?? null,
  };
}

function siteOf(context: HandlerContext): Site {
  const site = requestLocals(context.res).site;
  if (site === undefined) throw new Error('a v1 handler ran without an authenticated site');
  return site;
}
