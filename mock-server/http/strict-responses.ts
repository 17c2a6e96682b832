// Strict mode (on in our tests): every JSON response of a matched operation is validated against
// the contract (the generated response validator for its status, its status range or `default`)
// before it is sent. A mismatch is logged and answered with 500 internal_error naming it, so the
// mock cannot drift from its contract unnoticed.
import type { RequestHandler, Response } from 'express';
import { operationValidators as depositV1 } from '../../generated/deposit-v1/validators.js';
import { operationValidators as exchangeV3 } from '../../generated/exchange-v3/validators.js';
import { operationValidators as sandboxControl } from '../../generated/sandbox-control/validators.js';
import { requestLocals, type FamilyName } from './locals.js';

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
    // At the last step, res.end: handlers' answers are written straight to it (the generated
    // router does not go through res.json), errors through res.json, replays from the store.
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      const [chunk] = args;
      const problem = typeof chunk === 'string' || Buffer.isBuffer(chunk) ? problemOf(res, chunk) : undefined;
      if (problem === undefined) return end(...args);
      console.error(`mock-server strict mode: ${problem}`);
      const text = JSON.stringify({ state: 1, message: `strict mode: ${problem}`, result: null, error: { code: 'internal_error' } });
      res.statusCode = 500;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(text));
      return end(text);
    }) as Response['end'];
    next();
  };
}

/** What is wrong with a JSON body about to be sent; undefined when it is right or not JSON. */
function problemOf(res: Response, chunk: string | Buffer): string | undefined {
  if (res.headersSent || !/json/i.test(String(res.getHeader('content-type') ?? ''))) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(chunk.toString());
  } catch {
    return `${requestLocals(res).route?.operationId ?? 'a request'} answered a JSON content type with a body that is not JSON`;
  }
  return mismatch(res, body);
}

function mismatch(res: Response, body: unknown): string | undefined {
  const locals = requestLocals(res);
  const route = locals.route;
  if (route === undefined) return undefined;
  const responses = validatorsByFamily[locals.family][route.operationId]?.responses ?? {};
  const status = String(res.statusCode);
  const validate = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
  // A fault may answer a 5xx of the catalog, which no operation declares (control injectFault).
  if (validate === undefined && locals.faultAnswered === true) return undefined;
  if (validate === undefined) return `${route.operationId} answered ${status}, which its contract does not declare`;
  if (validate(body)) return undefined;
  const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
  return `${route.operationId} ${status} body does not match the contract: ${errors.join('; ')}`;
}
