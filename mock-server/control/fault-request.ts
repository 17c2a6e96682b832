// Turns an injectFault body into a fault the table keeps, checking what the body schema cannot:
// the operation exists, the scope fits its family, an error status is one the operation declares
// (or a 5xx of the catalog, which every operation may answer) with a code of that status. Everything
// is read from the contracts: the routes, each operation's responses and the error catalogs.
import { depositV1ErrorCodes } from '../../generated/deposit-v1/contract-data.js';
import { depositV1Routes } from '../../generated/deposit-v1/routes.js';
import { exchangeV3ErrorCodes } from '../../generated/exchange-v3/contract-data.js';
import { exchangeV3Routes } from '../../generated/exchange-v3/routes.js';
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import type { FaultRequest } from '../../generated/sandbox-control/types.js';
import { operationExtension, type BundledContract } from '../bundled-contracts.js';
import { HttpError } from '../http/http-error.js';
import type { FaultErrorAnswer, FaultFamily, FaultSpec } from './operation-faults.js';

interface FamilyFacts {
  contract: BundledContract;
  routes: readonly RouteDefinition[];
  catalog: Readonly<Record<string, { readonly status: number; readonly condition: string }>>;
}

const familyFacts: Record<FaultFamily, FamilyFacts> = {
  v3: { contract: 'exchange-v3', routes: exchangeV3Routes, catalog: exchangeV3ErrorCodes },
  v1: { contract: 'deposit-v1', routes: depositV1Routes, catalog: depositV1ErrorCodes },
};

/** The status a fault may give any operation: the catalog's 5xx (internal_error), which no operation lists. */
const serverErrorFrom = 500;

/** Seconds of Retry-After a faulted 429 sends when the body names none. */
const defaultRetryAfterSeconds = 1;

type Details = Record<string, string[]>;

export function faultSpecOf(body: FaultRequest): FaultSpec {
  const details: Details = {};
  const problem = (field: string, message: string) => (details[`body.${field}`] ??= []).push(message);
  const found = findOperation(body.operation);
  if (found === undefined) problem('operation', 'is not an operation of the exchange v3 or deposit v1 contract');

  if (body.key_id !== undefined && body.site_id !== undefined) problem('site_id', 'cannot be given with key_id: a call has a key or a site');
  if (found !== undefined && body.key_id !== undefined && (found.family !== 'v3' || found.route.scope === undefined)) {
    problem('key_id', `${body.operation} is not a private v3 operation, so no key authenticates it`);
  }
  if (found !== undefined && body.site_id !== undefined && found.family !== 'v1') {
    problem('site_id', `${body.operation} is not a v1 operation, so no site signs it`);
  }
  if (body.latency_ms === undefined && body.error === undefined && body.reset === undefined) {
    problem('latency_ms', 'give at least one of latency_ms, error and reset');
  }
  if (body.error !== undefined && body.reset !== undefined) problem('reset', 'cannot be given with error: a call is either answered or reset');
  const latency = body.latency_ms === undefined ? null : typeof body.latency_ms === 'number' ? { min: body.latency_ms, max: body.latency_ms } : body.latency_ms;
  if (latency !== null && latency.max < latency.min) problem('latency_ms.max', 'must be at least min');
  const error = found === undefined || body.error === undefined ? null : errorAnswer(found, body.error, problem);

  if (found === undefined || Object.keys(details).length > 0) throw new HttpError('validation_error', 'The given data was invalid.', details);
  return {
    operation: body.operation,
    family: found.family,
    keyId: body.key_id ?? null,
    siteId: body.site_id ?? null,
    latency,
    error,
    reset: body.reset === true,
    times: body.times ?? null,
    probability: body.probability ?? null,
    seed: body.seed ?? null,
  };
}

function findOperation(operationId: string): { family: FaultFamily; route: RouteDefinition } | undefined {
  for (const family of ['v3', 'v1'] as const) {
    const route = familyFacts[family].routes.find((r) => r.operationId === operationId);
    if (route !== undefined) return { family, route };
  }
  return undefined;
}

/** The error statuses an operation may be faulted with: those it declares, and the catalog's 5xx. */
export function faultableStatuses(family: FaultFamily, operationId: string): number[] {
  const facts = familyFacts[family];
  const responses = (operationExtension(facts.contract, operationId, 'responses') ?? {}) as Record<string, unknown>;
  const declared = Object.keys(responses).map(Number).filter((status) => status >= 400 && status <= 599);
  const serverErrors = Object.values(facts.catalog).map((entry) => entry.status).filter((status) => status >= serverErrorFrom);
  return [...new Set([...declared, ...serverErrors])].sort((a, b) => a - b);
}

function errorAnswer(
  found: { family: FaultFamily; route: RouteDefinition },
  error: NonNullable<FaultRequest['error']>,
  problem: (field: string, message: string) => void,
): FaultErrorAnswer | null {
  const allowed = faultableStatuses(found.family, found.route.operationId);
  if (!allowed.includes(error.status)) {
    problem('error.status', `${found.route.operationId} may answer ${allowed.join(', ')}`);
    return null;
  }
  const codes = Object.entries(familyFacts[found.family].catalog).filter(([, entry]) => entry.status === error.status);
  const chosen = error.code === undefined ? codes[0] : codes.find(([code]) => code === error.code);
  if (chosen === undefined) {
    problem('error.code', `must be a code of status ${error.status}: ${codes.map(([code]) => code).join(', ') || 'the catalog has none'}`);
    return null;
  }
  const [code, entry] = chosen;
  const retryAfterSeconds = error.retry_after_seconds ?? (error.status === 429 ? defaultRetryAfterSeconds : undefined);
  return {
    status: error.status,
    code,
    message: error.message ?? entry.condition,
    ...(error.details !== undefined ? { details: error.details } : {}),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  };
}
