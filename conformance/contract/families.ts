// The two API families the runner judges, each as the generated code describes it: the route
// table (operations, scopes, idempotency, pagination), the response validators, the error catalog
// (x-error-codes), the error format and the bundled contract for what the TypeScript lacks.
import { depositV1ErrorCodes, depositV1HeaderParameters, depositV1Info, type DepositV1ErrorCode } from '../../generated/deposit-v1/contract-data.js';
import { depositV1Routes, depositV1RoutesBasePath } from '../../generated/deposit-v1/routes.js';
import { operationValidators as depositV1Validators, webhookValidators as depositV1WebhookValidators } from '../../generated/deposit-v1/validators.js';
import { exchangeV3ErrorCodes, exchangeV3HeaderParameters, exchangeV3Info, type ExchangeV3ErrorCode } from '../../generated/exchange-v3/contract-data.js';
import { exchangeV3Routes, exchangeV3RoutesBasePath } from '../../generated/exchange-v3/routes.js';
import { operationValidators as exchangeV3Validators, webhookValidators as exchangeV3WebhookValidators } from '../../generated/exchange-v3/validators.js';
import { depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import { exchangeV3SignatureScheme } from '../../generated/exchange-v3/client.js';
import type { SignatureScheme } from '../../generated/runtime/client-signing.js';
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import type { ContractName } from './document.js';

export type FamilyName = 'v3' | 'v1';

export interface ResponseValidator {
  (data: unknown): boolean;
  errors?: readonly { instancePath: string; message?: string }[] | null;
}

export interface ValidatorSet {
  readonly path?: ResponseValidator;
  readonly query?: ResponseValidator;
  readonly body?: ResponseValidator;
  readonly responses: Readonly<Record<string, ResponseValidator | undefined>>;
}

export interface Family {
  name: FamilyName;
  contract: ContractName;
  basePath: string;
  routes: readonly RouteDefinition[];
  validators: Readonly<Record<string, ValidatorSet>>;
  errorCodes: Readonly<Record<string, { readonly status: number }>>;
  errorFormat: 'v3-envelope' | 'v1';
  /** The largest request body the contract takes (`info.x-body-limit-bytes`), if it states one. */
  bodyLimitBytes: number | undefined;
  /** Which code of the catalog answers which situation (typed: a renamed code breaks the build). */
  codes: ErrorMeanings;
  /** How requests are signed (x-signature-scheme): the timestamp header and its window. */
  signatureScheme: SignatureScheme;
  /** The family's webhooks: signing (x-webhook-signature), headers, a body validator per event type. */
  webhooks: {
    signatureHeader: string;
    eventIdHeader: string;
    eventTypeHeader: string;
    validators: Readonly<Record<string, ResponseValidator>>;
  };
}

export interface ErrorMeanings {
  missingCredentials: string;
  badCredentials: string;
  /** v3 only: the key lacks the operation's scope. */
  scopeDenied: string | undefined;
  validation: string;
  idempotencyConflict: string;
  /** A signature that does not verify (v3: its timestamp may be outside the window too). */
  badSignature: string;
  /** v1 only: a signature whose timestamp is outside the window. */
  timestampOutOfWindow: string | undefined;
}

const v3Codes = {
  missingCredentials: 'authentication_required',
  badCredentials: 'invalid_token',
  scopeDenied: 'scope_denied',
  validation: 'validation_error',
  idempotencyConflict: 'idempotency_conflict',
  badSignature: 'invalid_signature',
  timestampOutOfWindow: undefined,
} satisfies Record<keyof ErrorMeanings, ExchangeV3ErrorCode | undefined>;

const v1Codes = {
  missingCredentials: 'UNAUTHORIZED',
  badCredentials: 'INVALID_SIGNATURE',
  scopeDenied: undefined,
  validation: 'VALIDATION_ERROR',
  idempotencyConflict: 'IDEMPOTENCY_CONFLICT',
  badSignature: 'INVALID_SIGNATURE',
  timestampOutOfWindow: 'TIMESTAMP_OUT_OF_WINDOW',
} satisfies Record<keyof ErrorMeanings, DepositV1ErrorCode | undefined>;

export const families: Readonly<Record<FamilyName, Family>> = {
  v3: {
    name: 'v3',
    contract: 'exchange-v3',
    basePath: exchangeV3RoutesBasePath,
    routes: exchangeV3Routes,
    validators: exchangeV3Validators as unknown as Record<string, ValidatorSet>,
    errorCodes: exchangeV3ErrorCodes,
    errorFormat: exchangeV3Info['x-error-format'],
    bodyLimitBytes: exchangeV3Info['x-body-limit-bytes'],
    codes: v3Codes,
    signatureScheme: exchangeV3SignatureScheme,
    webhooks: {
      signatureHeader: exchangeV3Info['x-webhook-signature'].signature_header,
      eventIdHeader: exchangeV3Info['x-webhook-signature'].event_id_header,
      eventTypeHeader: exchangeV3HeaderParameters.WebhookEventTypeHeader,
      validators: exchangeV3WebhookValidators,
    },
  },
  v1: {
    name: 'v1',
    contract: 'deposit-v1',
    basePath: depositV1RoutesBasePath,
    routes: depositV1Routes,
    validators: depositV1Validators as unknown as Record<string, ValidatorSet>,
    errorCodes: depositV1ErrorCodes,
    errorFormat: depositV1Info['x-error-format'],
    bodyLimitBytes: depositV1Info['x-body-limit-bytes'],
    codes: v1Codes,
    signatureScheme: depositV1SignatureScheme,
    webhooks: {
      signatureHeader: depositV1Info['x-webhook-signature'].signature_header,
      eventIdHeader: depositV1Info['x-webhook-signature'].event_id_header,
      eventTypeHeader: depositV1HeaderParameters.WebhookEventType,
      validators: depositV1WebhookValidators,
    },
  },
};

export function routeOf(family: Family, operationId: string): RouteDefinition {
  const route = family.routes.find((candidate) => candidate.operationId === operationId);
  if (route === undefined) throw new Error(`${family.contract} has no operation ${operationId}`);
  return route;
}
