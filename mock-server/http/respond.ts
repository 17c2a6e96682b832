// What handlers return: the family's success body (the v3 envelope around `result`, or v1's
// `{ data, meta? }`) with its status. The mock's handlers use the typed helpers (v3Success,
// v1Success, controlSuccess): like the generated `<contract>Success`, they check the status and
// the payload against the operation's declared answers, but stamp the envelope with the
// request's ids from the platform and the time of the sandbox clock, not the wall clock.
import type { Operations as DepositV1Operations } from '../../generated/deposit-v1/types.js';
import type { Operations as ExchangeV3Operations } from '../../generated/exchange-v3/types.js';
import type { Operations as SandboxControlOperations } from '../../generated/sandbox-control/types.js';
import type { EnvelopePayload, HandlerContext, HandlerResponse, SuccessReply, TypedReply } from '../../generated/runtime/router-runtime.js';
import type { Clock } from '../clock.js';
import { successOf } from './families.js';
import type { OwnResult } from './success-payload.js';

/** A success answer of any status: for answers the contract is checked against at run time (overrides). */
export function respond(context: HandlerContext, clock: Clock, status: number, payload: unknown, meta?: Record<string, unknown>): HandlerResponse {
  return { status, body: successOf(context.res, clock, payload, meta) };
}

type OperationTable<Operations> = Record<keyof Operations, { responses: unknown; responseHeaders: unknown }>;
type Reply<Operations extends OperationTable<Operations>, Id extends keyof Operations> = TypedReply<Operations[Id]['responses'], Operations[Id]['responseHeaders']>;
type Answer<Operations extends OperationTable<Operations>, Id extends keyof Operations, Status> = Extract<Reply<Operations, Id>, { status: Status }>;
/** What a handler passes: v3's `result` as the operation types it (OwnResult), v1's `data`. */
type Payload<Body, Key extends 'result' | 'data'> = Key extends 'result' ? OwnResult<EnvelopePayload<Body, Key>> : EnvelopePayload<Body, Key>;

/** The typed success helper of one family, whose envelope carries its payload under `Key`. */
function typedSuccess<Operations extends OperationTable<Operations>, Key extends 'result' | 'data'>() {
  return <Id extends keyof Operations & string, Status extends SuccessReply<Reply<Operations, Id>>['status']>(
    operationId: Id,
    context: HandlerContext,
    clock: Clock,
    status: Status,
    payload: Payload<Answer<Operations, Id, Status>['body'], Key>,
    meta?: Record<string, unknown>,
  ): Answer<Operations, Id, Status> => {
    if (context.route.operationId !== operationId) throw new Error(`the answer of ${operationId} was built by the handler of ${context.route.operationId}`);
    // The body is the envelope around the checked payload; its other fields are the platform's.
    return respond(context, clock, status, payload, meta) as Answer<Operations, Id, Status>;
  };
}

/** `v3Success('getClient', context, clock, 200, { client })`: an exchange v3 success answer. */
export const v3Success = typedSuccess<ExchangeV3Operations, 'result'>();
/** `v1Success('getDeposit', context, clock, 200, deposit)`: a deposit v1 success answer (`data`). */
export const v1Success = typedSuccess<DepositV1Operations, 'data'>();
/** `controlSuccess('getClock', context, clock, 200, state)`: a sandbox control API success answer. */
export const controlSuccess = typedSuccess<SandboxControlOperations, 'result'>();

/**
 * The answer of a handler that wrote its response itself (a server-sent event stream on
 * `context.res`): a declared success status and no body. The reply types describe a status by
 * its body, which a stream sends as it goes, so this one kind of answer is asserted.
 */
export function streamedReply<Reply extends HandlerResponse>(status: SuccessReply<Reply>['status']): Reply {
  return { status, streamed: true } as Reply;
}
