// What the middleware chain learns about a request, kept in res.locals under one typed key.
import type { Response } from 'express';
import type { ReadForm } from '../../generated/runtime/request-fingerprint.js';
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import type { ApiKey } from '../domain/accounts/api-keys.js';
import type { FilePart } from './multipart-body.js';
import type { Site } from '../domain/accounts/sites.js';
import type { SignatureHeaders } from './verify-signature.js';

/** The API family a request belongs to (families.ts says how each renders its bodies). */
export type FamilyName = 'v3' | 'v1' | 'control';

export interface RequestLocals {
  requestId: string;
  /** The X-Correlation-Id header when it is a valid one (1..128 characters), else null. */
  correlationId: string | null;
  family: FamilyName;
  /** Real time the request arrived (for durations), not the virtual clock. */
  startedAt: number;
  route?: RouteDefinition;
  /** The authenticated v3 key. */
  key?: ApiKey;
  /** The authenticated v1 site. */
  site?: Site;
  /** The v1 signature headers, read once by authentication and checked after the body. */
  signature?: SignatureHeaders;
  /** The raw body, decoded; undefined when none was read (and for a multipart upload, which is streamed). */
  rawBody?: Buffer;
  /** An injected fault (control injectFault) answered the call instead of its operation. */
  faultAnswered?: boolean;
  /** Hex SHA-256 of the body's bytes, decoded: read it through body.ts's bodySha256, which hashes rawBody on first use. */
  bodySha256?: string;
  /** A multipart upload's parts as the idempotency fingerprint compares them. */
  form?: ReadForm;
  /** A multipart upload's file part, or why the form is not one. */
  upload?: FilePart;
}

const slot = 'exchangeApiKit';

export function requestLocals(res: Response): RequestLocals {
  const locals = res.locals[slot] as RequestLocals | undefined;
  if (locals === undefined) throw new Error('request context missing: mount requestContext() first');
  return locals;
}

export function initRequestLocals(res: Response, locals: RequestLocals): void {
  res.locals[slot] = locals;
}
