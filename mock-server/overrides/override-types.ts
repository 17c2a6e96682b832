// The types of per-test overrides (`mock.use(operationId, handler)`), derived from the generated
// types of the v3 and v1 contracts: the handler gets the operation's parsed, validated request
// (the generated routers' HandlerRequest) and answers one of the statuses the operation declares,
// with the payload the family's envelope carries for that status (v3 `result`, v1 `data`), or an
// error code of that status from the family's catalog. The platform adds the envelope.
import type { depositV1ErrorCodes } from '../../generated/deposit-v1/contract-data.js';
import type { Operations as DepositV1Operations } from '../../generated/deposit-v1/types.js';
import type { exchangeV3ErrorCodes } from '../../generated/exchange-v3/contract-data.js';
import type { Operations as ExchangeV3Operations } from '../../generated/exchange-v3/types.js';
import type { OwnResult } from '../http/success-payload.js';

/** Every operationId of the exchange v3 and deposit v1 contracts. */
export type OverridableOperation = keyof ExchangeV3Operations | keyof DepositV1Operations;

type OperationOf<Id extends OverridableOperation> = Id extends keyof ExchangeV3Operations
  ? ExchangeV3Operations[Id]
  : Id extends keyof DepositV1Operations
    ? DepositV1Operations[Id]
    : never;

type CatalogOf<Id extends OverridableOperation> = Id extends keyof ExchangeV3Operations ? typeof exchangeV3ErrorCodes : typeof depositV1ErrorCodes;

/**
 * The request an override gets: the operation's path, query, headers and body, parsed and
 * validated; the shape of the generated routers' HandlerRequest, taken from the operation types
 * rather than from routes.ts, whose runtime types name express's (the package's declarations
 * need no @types/express).
 */
export type OverrideRequest<Id extends OverridableOperation> = Pick<OperationOf<Id>, 'path' | 'query' | 'headers' | 'body'>;

/** What the mock knows of the call besides its request. */
export interface OverrideContext {
  /** The X-Request-Id of the answer. */
  requestId: string;
  /** The mock's virtual instant (the clock the simulation uses). */
  now: Date;
  /** The v3 key that authenticated the call (private v3 operations). */
  keyId?: number;
  /** The v1 site that signed the call. */
  siteId?: number;
}

type Responses<Id extends OverridableOperation> = OperationOf<Id>['responses'];
type StatusKey<Id extends OverridableOperation> = Extract<keyof Responses<Id>, `${number}`>;
type NumberOf<Key> = Key extends `${infer N extends number}` ? N : never;

/** The v3 envelope's own meta fields, which the platform fills in. */
type PlatformMeta = 'request_id' | 'correlation_id' | 'timestamp';

/** A response body with no content in the contract is `unknown`: the override then sends none. */
type IsUnknown<T> = unknown extends T ? true : false;

/** The payload of a success body: v3 `result`, v1 `data`, or the body itself (a YAML or XML text). */
type PayloadOf<Body> = Body extends { state: 0; result?: infer Result } ? OwnResult<Result> : Body extends { data: infer Data } ? Data : Body;

/** Meta an override may (or, for lists, must) give: v3 meta beyond the platform's, v1 `meta`. */
type MetaOf<Body> = Body extends { state: 0; meta: infer Meta }
  ? Optional<Omit<Meta, PlatformMeta>>
  : Body extends { data: unknown; meta: infer Meta }
    ? Optional<Meta>
    : Body extends { data: unknown; meta?: infer Meta }
      ? { meta?: Meta }
      : unknown;

/** `meta` required when the contract requires some of its fields, optional otherwise. */
type Optional<Meta> = Record<string, never> extends Meta ? { meta?: Meta } : { meta: Meta };

type SuccessResponse<Body, Status extends number> =
  IsUnknown<Body> extends true
    ? { status: Status; headers?: Record<string, string> }
    : { status: Status; body: PayloadOf<Body>; headers?: Record<string, string> } & MetaOf<Body>;

type CodeOf<Catalog, Status extends number> = {
  [Code in keyof Catalog]: Catalog[Code] extends { status: Status } ? Code : never;
}[keyof Catalog];

interface ErrorResponse<Catalog, Status extends number> {
  status: Status;
  error: {
    /** A code of the family's error catalog with this status. */
    code: CodeOf<Catalog, Status>;
    /** Default the code's condition in the catalog. */
    message?: string;
    details?: Record<string, string[]>;
  };
  headers?: Record<string, string>;
}

/** One of the statuses the operation declares, with what the family's envelope carries for it. */
export type OverrideResponse<Id extends OverridableOperation> = {
  [Key in StatusKey<Id>]: Key extends `2${string}`
    ? SuccessResponse<Responses<Id>[Key], NumberOf<Key>>
    : ErrorResponse<CatalogOf<Id>, NumberOf<Key>>;
}[StatusKey<Id>];

/**
 * An override: answers the call instead of the simulation, or returns undefined to let the
 * simulation answer (for example only for some request bodies).
 */
export type OverrideHandler<Id extends OverridableOperation> = (
  request: OverrideRequest<Id>,
  context: OverrideContext,
) => OverrideResponse<Id> | undefined | Promise<OverrideResponse<Id> | undefined>;

/**
 * The override of each operation, by operationId. `use` takes `OverrideHandlers[Id]` rather than
 * `OverrideHandler<Id>`: through the indexed type TypeScript keeps a returned `status: 200` a
 * literal, so the answer is checked against the union of the operation's statuses.
 */
export type OverrideHandlers = { [Id in OverridableOperation]: OverrideHandler<Id> };
