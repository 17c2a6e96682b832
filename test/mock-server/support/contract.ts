// What the contracts say a response must look like: the generated response validators per
// operation and status, and each family's error format and catalog (x-error-codes).
import { expect } from 'vitest';
import { depositV1ErrorCodes } from '../../../generated/deposit-v1/contract-data.js';
import { depositV1Routes } from '../../../generated/deposit-v1/routes.js';
import { operationValidators as v1Validators } from '../../../generated/deposit-v1/validators.js';
import { exchangeV3ErrorCodes } from '../../../generated/exchange-v3/contract-data.js';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../../generated/exchange-v3/routes.js';
import { operationValidators as v3Validators } from '../../../generated/exchange-v3/validators.js';
import type { RouteDefinition } from '../../../generated/runtime/router-runtime.js';
import { sandboxControlErrorCodes } from '../../../generated/sandbox-control/contract-data.js';
import { sandboxControlRoutes, sandboxControlRoutesBasePath } from '../../../generated/sandbox-control/routes.js';
import { operationValidators as controlValidators } from '../../../generated/sandbox-control/validators.js';
import type { RawResponse } from './http.js';

export type FamilyName = 'v3' | 'v1' | 'control';

interface ResponseValidator {
  (data: unknown): boolean;
  errors?: readonly { instancePath: string; message?: string }[] | null;
}
type ValidatorTable = Readonly<Record<string, { readonly responses: Readonly<Record<string, ResponseValidator | undefined>> }>>;

export interface Family {
  name: FamilyName;
  routes: readonly RouteDefinition[];
  basePath: string;
  catalog: Readonly<Record<string, { readonly status: number }>>;
  validators: ValidatorTable;
  /** 'v3-envelope' (v3 and control) or 'v1'. */
  errorFormat: 'v3-envelope' | 'v1';
}

export const families: Record<FamilyName, Family> = {
  v3: { name: 'v3', routes: exchangeV3Routes, basePath: exchangeV3RoutesBasePath, catalog: exchangeV3ErrorCodes, validators: v3Validators, errorFormat: 'v3-envelope' },
  // The v1 route paths are written in full (/v1/public/...).
  v1: { name: 'v1', routes: depositV1Routes, basePath: '', catalog: depositV1ErrorCodes, validators: v1Validators, errorFormat: 'v1' },
  control: { name: 'control', routes: sandboxControlRoutes, basePath: sandboxControlRoutesBasePath, catalog: sandboxControlErrorCodes, validators: controlValidators, errorFormat: 'v3-envelope' },
};

/**
 * Checks a JSON body against the operation's generated response validator for its status.
 * Returns false when the contract declares no body for that status (nothing to check).
 */
export function expectContractBody(family: FamilyName, operationId: string, status: number, body: unknown): boolean {
  const operation = families[family].validators[operationId];
  if (operation === undefined) throw new Error(`no validators for ${family} ${operationId}`);
  const validate = operation.responses[String(status)];
  if (validate === undefined) return false;
  const valid = validate(body);
  const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  expect(valid, `${family} ${operationId} ${status} body breaks its contract: ${problems.join('; ')}\n${JSON.stringify(body).slice(0, 2000)}`).toBe(true);
  return true;
}

/** The error code of a body in the family's format (undefined when it has none). */
export function errorCodeOf(body: unknown): string | undefined {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  return typeof error?.code === 'string' ? error.code : undefined;
}

/**
 * A response in the family's format: the v3 envelope (state, message, result, meta.request_id =
 * X-Request-Id) or the v1 body (data / error + requestId); an error carries a code of the
 * family's catalog with the catalog's status.
 */
export function expectFamilyResponse(family: FamilyName, response: RawResponse, what = ''): void {
  const context = `${what} → ${response.status} ${response.text.slice(0, 500)}`;
  expect(response.contentType, context).toMatch(/^application\/json/);
  const body = response.json;
  expect(isRecord(body), context).toBe(true);
  if (!isRecord(body)) return;
  const requestId = response.headers.get('x-request-id');
  expect(requestId, context).toBeTruthy();
  const ok = response.status >= 200 && response.status < 300;
  if (families[family].errorFormat === 'v3-envelope') {
    expect(isRecord(body.meta) && body.meta.request_id, context).toBe(requestId);
    expect(body.state === 0, context).toBe(ok);
  } else if (!ok) {
    expect(body.requestId, context).toBe(requestId);
  }
  if (ok) return;
  const code = errorCodeOf(body);
  expect(code, context).toBeTypeOf('string');
  const entry = families[family].catalog[code ?? ''];
  expect(entry, `${context}: ${code} is not in the ${family} error catalog`).toBeDefined();
  expect(response.status, context).toBe(entry?.status);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
