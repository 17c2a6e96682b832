// Puts the installed overrides (mock.use) in front of a family's handlers: an operation with an
// override answers what the override returns, rendered by the platform (the family's envelope,
// or the error catalog's format), after the same pipeline as the simulation (auth, limits,
// signature, idempotency, request validation); without one, or when it returns undefined, the
// simulation answers. An answer the contract does not allow (a status the operation does not
// declare, a code of another status) is a mistake in the test and fails loudly as a 500.
import { depositV1ErrorCodes } from '../../generated/deposit-v1/contract-data.js';
import { exchangeV3ErrorCodes } from '../../generated/exchange-v3/contract-data.js';
import type { HandlerContext, HandlerResponse } from '../../generated/runtime/router-runtime.js';
import { operationExtension } from '../bundled-contracts.js';
import type { Clock } from '../clock.js';
import { HttpError } from '../http/http-error.js';
import { requestLocals } from '../http/locals.js';
import { respond } from '../http/respond.js';
import type { OverrideRegistry, StoredOverride } from './override-registry.js';
import type { OverrideContext } from './override-types.js';

export type OverridableContract = 'exchange-v3' | 'deposit-v1';

const catalogs: Record<OverridableContract, Readonly<Record<string, { readonly status: number; readonly condition: string }>>> = {
  'exchange-v3': exchangeV3ErrorCodes,
  'deposit-v1': depositV1ErrorCodes,
};

type Handler = (request: unknown, context: HandlerContext) => unknown;

/** The JSON media types, as the generated router tells them from others. */
const jsonMediaType = /^application\/(?:[\w.-]+\+)?json$/i;

/** The handlers with the registry's overrides in front; a call without an override costs one map look-up. */
export function withOverrides<Handlers extends object>(handlers: Handlers, registry: OverrideRegistry, contract: OverridableContract, clock: Clock): Handlers {
  const wrapped: Record<string, Handler> = {};
  for (const [operationId, handler] of Object.entries(handlers) as [string, Handler][]) {
    const simulate: Handler = (request, context) => handler.call(handlers, request, context);
    wrapped[operationId] = (request, context) => {
      const override = registry.find(operationId);
      return override === undefined ? simulate(request, context) : overridden(override, { operationId, contract, clock, request, context, simulate });
    };
  }
  return wrapped as Handlers;
}

interface Call {
  operationId: string;
  contract: OverridableContract;
  clock: Clock;
  request: unknown;
  context: HandlerContext;
  simulate: Handler;
}

async function overridden(override: StoredOverride, call: Call): Promise<unknown> {
  const answer = (await override(call.request, overrideContext(call))) as Answer | undefined;
  return answer === undefined ? call.simulate(call.request, call.context) : render(answer, call);
}

function overrideContext({ context, clock }: Call): OverrideContext {
  const locals = requestLocals(context.res);
  return {
    requestId: locals.requestId,
    now: clock.now(),
    ...(locals.key !== undefined ? { keyId: locals.key.id } : {}),
    ...(locals.site !== undefined ? { siteId: locals.site.id } : {}),
  };
}

/** An override's answer as the types allow it, read without them. */
interface Answer {
  status: number;
  body?: unknown;
  meta?: Record<string, unknown>;
  headers?: Record<string, string>;
  error?: { code: string; message?: string; details?: Record<string, string[]> };
}

function render(answer: Answer, { operationId, contract, clock, context }: Call): HandlerResponse {
  const declared = (operationExtension(contract, operationId, 'responses') ?? {}) as Record<string, { content?: Record<string, unknown> }>;
  const response = declared[String(answer.status)];
  if (response === undefined) {
    throw new Error(`the override of ${operationId} answered ${answer.status}; its contract declares ${Object.keys(declared).join(', ')}`);
  }
  if (answer.error !== undefined) {
    const entry = catalogs[contract][answer.error.code];
    if (entry?.status !== answer.status) throw new Error(`the override of ${operationId} answered ${answer.status} with ${answer.error.code}, which is not a code of that status`);
    throw new HttpError(answer.error.code, answer.error.message ?? entry.condition, answer.error.details, answer.headers);
  }
  const headers = answer.headers === undefined ? {} : { headers: answer.headers };
  const mediaType = Object.keys(response.content ?? {})[0];
  if (mediaType === undefined) return { status: answer.status, ...headers };
  if (!jsonMediaType.test(mediaType)) return { status: answer.status, body: answer.body, contentType: mediaType, ...headers };
  return { ...respond(context, clock, answer.status, answer.body, answer.meta), ...headers };
}
