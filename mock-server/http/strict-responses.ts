// Strict mode (on in our tests): every JSON response of a matched operation is validated against
// the contract (the generated response validator for its status, its status range or `default`)
// before it is sent. A mismatch is logged and answered with 500 internal_error naming it, so the
// mock cannot drift from its contract unnoticed. The 501 `not_simulated` placeholder is exempt.
import type { RequestHandler, Response } from 'express';
import { operationValidators as depositV1 } from '../../generated/deposit-v1/validators.js';
import { operationValidators as exchangeV3 } from '../../generated/exchange-v3/validators.js';
import { operationValidators as sandboxControl } from '../../generated/sandbox-control/validators.js';
import type { FamilyName } from './families.js';
import { requestLocals } from './locals.js';

interface ResponseValidator {
  (data: unknown): boolean;
  errors?: { instancePath: string; message?: string }[] | null;
}

const validatorsByFamily: Record<FamilyName, Record<string, { responses: Record<string, ResponseValidator | undefined> }>> = {
  v3: exchangeV3,
  v1: depositV1,
  control: sandboxControl,
};

export function strictResponses(): RequestHandler {
  return (_req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown): Response => {
      const problem = mismatch(res, body);
      if (problem === undefined) return json(body);
      console.error(`mock-server strict mode: ${problem}`);
      res.status(500);
      return json({ state: 1, message: `strict mode: ${problem}`, result: null, error: { code: 'internal_error' } });
    };
    next();
  };
}

function mismatch(res: Response, body: unknown): string | undefined {
  const locals = requestLocals(res);
  const route = locals.route;
  if (route === undefined || res.statusCode === 501) return undefined;
  const responses = validatorsByFamily[locals.family][route.operationId]?.responses ?? {};
  const status = String(res.statusCode);
  const validate = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
  if (validate === undefined) return `${route.operationId} answered ${status}, which its contract does not declare`;
  if (validate(body)) return undefined;
  const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
  return `${route.operationId} ${status} body does not match the contract: ${errors.join('; ')}`;
}
