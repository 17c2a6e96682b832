// The security schemes of a contract, enforced for a generated router (its routeMiddleware):
// a Bearer token or a signing API key identifies the caller through the implementer's look-up,
// the operation's scope (`x-scope`) is checked against the caller's, and a caller that must
// sign has its request verified with the contract's `x-signature-scheme` (timestamp window,
// HMAC over the raw body, optional nonce replay check). Each failure answers the code the
// contract's catalog marks for it (`x-security-failure`) in the contract's envelope.
import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { signatureOf, type SignatureScheme } from './client-signing.js';
import { catalogError, type CatalogCode, type ContractErrors, type RouteDefinition } from './router-runtime.js';

export type SecurityFailure =
  | 'credentials-missing'
  | 'credentials-unknown'
  | 'signature-missing'
  | 'signature-invalid'
  | 'signature-expired'
  | 'signature-replayed'
  | 'scope-denied';

/** Who is calling, as the implementer's look-up returns it. */
export interface Caller {
  /** A stable id of the caller, by which per-caller records (idempotency keys, meters) are kept. */
  id?: string | undefined;
  /** The scopes the caller holds (checked against the operation's `x-scope`). */
  scopes: readonly string[];
  /** The secret its requests must be signed with; undefined when it may send unsigned requests. */
  signingSecret?: string | undefined;
}

type Lookup = (credential: string, req: Request) => Caller | undefined | Promise<Caller | undefined>;

/** What an implementer plugs in; the mock plugs in its sandbox, a real backend its key store. */
export interface SecurityHooks {
  /** The caller behind a Bearer token (http `bearer` schemes); undefined: unknown token. */
  bearerToken?: Lookup | undefined;
  /** The caller behind an API key sent in a signature scheme's key header (v1 sites); it must sign. */
  apiKey?: Lookup | undefined;
  /** True when the nonce was already used by this caller within the window (and records it); without it, no replay check. */
  nonceUsed?: ((nonce: string, caller: Caller) => boolean | Promise<boolean>) | undefined;
  /** Milliseconds since the epoch, for the signature window; Date.now by default. */
  now?: (() => number) | undefined;
}

/** A contract's security schemes as its contract-data declares them. */
export type SecuritySchemes = Readonly<Record<string, { readonly type?: string; readonly scheme?: string; readonly 'x-signature-scheme'?: unknown }>>;

/** express.json's `verify` option that keeps the raw body, which signatures cover: `express.json({ verify: keepRawBody })`. */
export function keepRawBody(req: Request, _res: Response, body: Buffer): void {
  (req as Request & { rawBody?: Buffer }).rawBody = body;
}

/** The caller a security middleware admitted, for handlers (`callerOf(context.res)`). */
export function callerOf(res: Response): Caller | undefined {
  return (res.locals as { caller?: Caller }).caller;
}

/**
 * The middleware of each route (pass it as RouterOptions.routeMiddleware): none for a public
 * operation, else one step that authenticates, checks the scope and verifies the signature.
 */
export function securityMiddleware(
  schemes: SecuritySchemes,
  hooks: SecurityHooks,
  errors: ContractErrors,
  failures: Readonly<Record<SecurityFailure, CatalogCode>>,
): (route: RouteDefinition) => RequestHandler[] {
  return (route) => {
    const names = [...new Set(route.security.flat())];
    if (names.length === 0) return [];
    const bearer = names.some((name) => schemes[name]?.type === 'http' && schemes[name]?.scheme === 'bearer');
    const signing = names.map((name) => schemes[name]?.['x-signature-scheme'] as SignatureScheme | undefined).find((scheme) => scheme !== undefined);
    const admit = async (req: Request, res: Response): Promise<SecurityFailure | undefined> => {
      const identified = bearer ? await identifyByBearer(req, hooks) : await identifyByKey(req, hooks, signing);
      if (typeof identified === 'string') return identified;
      if (typeof route.scope === 'string' && !identified.scopes.includes(route.scope)) return 'scope-denied';
      if (identified.signingSecret !== undefined) {
        if (signing === undefined) return 'signature-invalid';
        const failure = await verifySignature(req, signing, identified, hooks);
        if (failure !== undefined) return failure;
      }
      (res.locals as { caller?: Caller }).caller = identified;
      return undefined;
    };
    return [
      (req, res, next) => {
        admit(req, res).then((failure) => {
          if (failure === undefined) return next();
          const { status, body } = catalogError(errors, failures[failure], { req, res }, messages[failure]);
          res.status(status).json(body);
        }, next);
      },
    ];
  };
}

const messages: Record<SecurityFailure, string> = {
  'credentials-missing': 'Credentials are required.',
  'credentials-unknown': 'The credentials are not valid.',
  'signature-missing': 'This key must sign its requests.',
  'signature-invalid': 'The signature does not match the request.',
  'signature-expired': 'The signature timestamp is outside the allowed window.',
  'signature-replayed': 'The nonce was already used.',
  'scope-denied': 'The key lacks the scope this operation needs.',
};

async function identifyByBearer(req: Request, hooks: SecurityHooks): Promise<Caller | SecurityFailure> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
  if (token === undefined) return 'credentials-missing';
  return (await hooks.bearerToken?.(token, req)) ?? 'credentials-unknown';
}

async function identifyByKey(req: Request, hooks: SecurityHooks, scheme: SignatureScheme | undefined): Promise<Caller | SecurityFailure> {
  const keyHeader = scheme?.headers.key;
  const key = keyHeader === undefined ? undefined : req.get(keyHeader);
  // Such schemes authenticate by the signature: without its headers there are no credentials.
  if (key === undefined || scheme === undefined || req.get(scheme.headers.signature) === undefined || req.get(scheme.headers.timestamp) === undefined) {
    return 'credentials-missing';
  }
  const caller = await hooks.apiKey?.(key, req);
  if (caller === undefined) return 'credentials-unknown';
  return { ...caller, signingSecret: caller.signingSecret ?? '' };
}

async function verifySignature(req: Request, scheme: SignatureScheme, caller: Caller, hooks: SecurityHooks): Promise<SecurityFailure | undefined> {
  const signature = req.get(scheme.headers.signature);
  const timestamp = req.get(scheme.headers.timestamp);
  const nonce = scheme.headers.nonce === undefined ? undefined : req.get(scheme.headers.nonce);
  if (signature === undefined || timestamp === undefined || (scheme.headers.nonce !== undefined && nonce === undefined)) return 'signature-missing';
  const seconds = Number(timestamp);
  const now = (hooks.now ?? Date.now)() / 1000;
  if (!/^\d+$/.test(timestamp) || Math.abs(now - seconds) > scheme.window_seconds) return 'signature-expired';
  const expected = signatureOf(scheme, caller.signingSecret ?? '', {
    timestamp,
    nonce,
    method: req.method,
    pathAndQuery: req.originalUrl,
    body: (req as Request & { rawBody?: Buffer }).rawBody,
  });
  const given = Buffer.from(signature.toLowerCase());
  if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) return 'signature-invalid';
  if (nonce !== undefined && hooks.nonceUsed !== undefined && (await hooks.nonceUsed(nonce, caller))) return 'signature-replayed';
  return undefined;
}
