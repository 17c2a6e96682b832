// The platform middleware every operation runs after its route matched and before its request
// is validated: per family, in order, one line per step. A body announced over its limit is
// refused first. Private v3 operations (those with an x-scope, null included) are
// authenticated, limited and counted; public ones only read their body. Every v1 operation is
// signed by its site. A hook may add a step once the platform has admitted a call, before
// idempotency and the operation (the control API's injected faults).
import type { RequestHandler, Response } from 'express';
import type { DepositV1ErrorCode } from '../../generated/deposit-v1/contract-data.js';
import { operationValidators as depositV1Validators } from '../../generated/deposit-v1/validators.js';
import type { ExchangeV3ErrorCode } from '../../generated/exchange-v3/contract-data.js';
import { operationValidators as exchangeV3Validators } from '../../generated/exchange-v3/validators.js';
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import { keyCallerId, siteCallerId } from '../domain/accounts/caller-ids.js';
import type { Sandbox } from '../sandbox.js';
import { authenticateV1, verifySignatureV1 } from './authenticate-v1.js';
import { authenticateV3, verifySignatureV3 } from './authenticate-v3.js';
import { readBody, refuseAnnouncedOversize } from './body.js';
import { controlBodyLimits, v1BodyLimits, v3BodyLimits } from './body-limits.js';
import { createIdempotency } from './idempotency.js';
import { requestLocals } from './locals.js';
import { rateLimit } from './rate-limit.js';
import { recordUsage } from './usage-recorder.js';

export interface PipelineHooks {
  /** A step for each route, run once a call is admitted (authenticated, within limits, signature checked). */
  admitted?: (route: RouteDefinition) => RequestHandler;
}

export interface Pipeline {
  v3(route: RouteDefinition): RequestHandler[];
  v1(route: RouteDefinition): RequestHandler[];
  control(route: RouteDefinition): RequestHandler[];
}

export function createPipeline(sandbox: Sandbox, hooks: PipelineHooks = {}): Pipeline {
  const admitted = (route: RouteDefinition): RequestHandler[] => (hooks.admitted === undefined ? [] : [hooks.admitted(route)]);
  // Read per request: a reset keeps the store, so the records it holds are the sandbox's now.
  const records = { store: sandbox.store.idempotency, clock: sandbox.clock, maxPerCaller: sandbox.idempotencyRecordsPerCaller };
  const v3Idempotency = createIdempotency({
    ...records,
    // Idempotency keys are scoped per caller: the v3 key or the v1 site (one store holds both families).
    caller: (res: Response) => {
      const { key } = requestLocals(res);
      return key && keyCallerId(key);
    },
    conflictCode: 'idempotency_conflict' satisfies ExchangeV3ErrorCode,
    validationCode: 'validation_error' satisfies ExchangeV3ErrorCode,
    fullCode: 'quota_exceeded' satisfies ExchangeV3ErrorCode,
    validators: exchangeV3Validators,
  });
  const v1Idempotency = createIdempotency({
    ...records,
    caller: (res: Response) => {
      const { site } = requestLocals(res);
      return site && siteCallerId(site);
    },
    conflictCode: 'IDEMPOTENCY_CONFLICT' satisfies DepositV1ErrorCode,
    validationCode: 'VALIDATION_ERROR' satisfies DepositV1ErrorCode,
    fullCode: 'RATE_LIMITED' satisfies DepositV1ErrorCode,
    validators: depositV1Validators,
  });

  // Usage is recorded right after authentication, so a key's refusals (429, bad signature,
  // idempotency conflict) count as its errors; the body is read only once the key may proceed.
  return {
    v3: (route) =>
      route.scope === undefined
        ? [refuseAnnouncedOversize(route, v3BodyLimits.bytes), ...readBody(route, v3BodyLimits), ...admitted(route)]
        : [
            refuseAnnouncedOversize(route, v3BodyLimits.bytes),
            authenticateV3(sandbox, route),
            recordUsage(sandbox, route.operationId),
            rateLimit(sandbox),
            ...readBody(route, v3BodyLimits),
            verifySignatureV3(sandbox),
            ...admitted(route),
            v3Idempotency(route),
          ],
    v1: (route) => [
      refuseAnnouncedOversize(route, v1BodyLimits.bytes),
      authenticateV1(sandbox, route),
      ...readBody(route, v1BodyLimits),
      verifySignatureV1(),
      ...admitted(route),
      v1Idempotency(route),
    ],
    control: (route) => {
      // An operation may declare larger limits of its own (importSandboxState: a whole sandbox).
      const limits = controlBodyLimits(route.operationId);
      return [refuseAnnouncedOversize(route, limits.bytes), ...readBody(route, limits)];
    },
  };
}
