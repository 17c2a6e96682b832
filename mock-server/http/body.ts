// Reads a request body within its limit, decoding its Content-Encoding, and keeps its bytes for
// their SHA-256 (request signatures cover them; bodySha256) and what it says for the idempotency
// fingerprint (fingerprintBody):
// - a JSON body (the family's limit, its contract's info.x-body-limit-bytes) is kept raw and
//   parsed, and refused (400) when it nests deeper than info.x-json-depth-limit; a body without a
//   Content-Type is read as JSON, another media type gets 415;
// - a route whose body is `*/*` (the control API's webhook inbox) takes any bytes, kept raw;
// - a multipart upload is streamed (multipart-body.ts): hashed whole, its parts listed, its file
//   part reduced;
// - an operation that takes no body ignores one: it is neither read nor signed.
// Every failure while reading is a 4xx: a body that does not decode 400, an unknown encoding
// 415, too large 413. A body announced larger than the limit is refused before anything else
// runs (refuseAnnouncedOversize), so a client cannot hold a connection open on a huge promise.
import { hash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { noFingerprintBody, type FingerprintBody } from '../../generated/runtime/request-fingerprint.js';
import { nestsDeeperThan } from '../../generated/runtime/json-depth.js';
import type { RouteDefinition } from '../../generated/runtime/router-runtime.js';
import { uploadLimits } from '../domain/files/upload-limits.js';
import type { BodyLimits } from './body-limits.js';
import { families } from './families.js';
import { HttpError } from './http-error.js';
import { requestLocals, type FamilyName, type RequestLocals } from './locals.js';
import { multipartOverheadBytes, readMultipartBody } from './multipart-body.js';
import { bodyPending } from './pending-body.js';
import { readBodyBytes } from './streamed-body.js';

/** The raw body of every request that has none (empty, so nothing can change it). */
const noBody = Buffer.alloc(0);
const noBodySha256 = hash('sha256', noBody, 'hex');

/**
 * Hex SHA-256 of the body's bytes as read (decoded), of nothing when none was read; undefined
 * when no body step ran. Hashed on first use and kept: a call that is neither signed nor
 * idempotent never needs it, and hashing every body was a visible share of a POST's CPU.
 */
export function bodySha256(locals: RequestLocals): string | undefined {
  if (locals.bodySha256 === undefined && locals.rawBody !== undefined) {
    // The one-shot hash: about 0.25 µs for a create's body, against 0.7–1.1 µs for a Hash object.
    locals.bodySha256 = locals.rawBody === noBody ? noBodySha256 : hash('sha256', locals.rawBody, 'hex');
  }
  return locals.bodySha256;
}

/**
 * What the body says, for the idempotency fingerprint (request-fingerprint.ts), from what reading
 * it produced (nothing is parsed again): the parsed JSON value, a form's parts, else the bytes.
 */
export function fingerprintBody(req: Request, locals: RequestLocals): FingerprintBody {
  if (locals.form !== undefined) return { kind: 'form', form: locals.form };
  if (req.body !== undefined) return { kind: 'json', value: req.body };
  const sha256 = bodySha256(locals);
  return sha256 === undefined ? noFingerprintBody : { kind: 'bytes', sha256 };
}

function isMultipart(route: RouteDefinition): boolean {
  return route.body?.contentType.startsWith('multipart/') === true;
}

/** The most bytes a route's body may have: the family's limit, or for an upload its file ceiling and the form around it. */
export function bodyLimitOf(route: RouteDefinition, familyLimitBytes: number): number {
  return isMultipart(route) ? uploadLimits().ceilingBytes + multipartOverheadBytes : familyLimitBytes;
}

/** 413 at once for a Content-Length over the route's limit, before authentication or anything else reads the request. */
export function refuseAnnouncedOversize(route: RouteDefinition, familyLimitBytes: number): RequestHandler {
  const limit = bodyLimitOf(route, familyLimitBytes);
  return (req, res, next) => {
    const announced = Number(req.headers['content-length'] ?? 0);
    if (route.body === undefined || !(announced > limit)) {
      next();
      return;
    }
    next(new HttpError(families[requestLocals(res).family].codes.payloadTooLarge, `The request body would be ${announced} bytes; the limit is ${limit}.`));
  };
}

export function readBody(route: RouteDefinition, limits: BodyLimits): RequestHandler[] {
  const limit = bodyLimitOf(route, limits.bytes);
  return [
    (req, res, next) => {
      const locals = requestLocals(res);
      const codes = families[locals.family].codes;
      // An operation without a body, or a request that announces none (no Content-Length, no
      // Transfer-Encoding: most GETs; or a length of 0): nothing to read. Skipping the parser is
      // a measurable share of a small request.
      const announcesNone = req.headers['content-length'] === '0' || (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined);
      if (route.body === undefined || announcesNone) {
        locals.rawBody = noBody;
        req.body = undefined;
        // A body sent anyway stays unread: the connection closes after the answer rather than wait for it.
        if (bodyPending(req)) res.setHeader('Connection', 'close');
        next();
        return;
      }
      if (isMultipart(route)) {
        readMultipartBody(req, { field: uploadLimits().filePart, ceilingBytes: uploadLimits().ceilingBytes, codes }).then((body) => {
          locals.bodySha256 = body.sha256;
          locals.form = body.form;
          locals.upload = body.part;
          next();
        }, next);
        return;
      }
      const read = (error: unknown, bytes: Buffer) => {
        if (error !== undefined) {
          next(readFailure(error, locals.family, req));
          return;
        }
        locals.rawBody = bytes;
        req.body = undefined;
        if (bytes.length === 0 || route.body?.contentType === '*/*') {
          next();
          return;
        }
        if (!isJsonType(req)) {
          next(new HttpError(codes.unsupportedMediaType, 'Send the body as application/json.'));
          return;
        }
        const charset = declaredCharset(req);
        if (charset !== undefined) {
          next(new HttpError(codes.unsupportedMediaType, `The request body's charset (${charset}) is not supported: send JSON as UTF-8.`));
          return;
        }
        const text = bytes.toString('utf8');
        try {
          req.body = JSON.parse(text);
        } catch {
          next(new HttpError(codes.badRequest, 'The request body is not valid JSON.'));
          return;
        }
        if (nestsDeeperThan(text, limits.jsonDepth)) {
          req.body = undefined;
          next(new HttpError(codes.badRequest, `The request body nests arrays and objects more than ${limits.jsonDepth} levels deep.`));
          return;
        }
        next();
      };
      readBodyBytes(req, limit, (error, bytes) => read(error, bytes ?? noBody));
    },
  ];
}

/** The Content-Type texts clients send for JSON, accepted without parsing the header. */
const plainJsonTypes = new Set(['application/json', 'application/json; charset=utf-8']);

/** A body without a Content-Type is read as JSON; otherwise the type must be JSON (`+json` included). */
function isJsonType(req: Request): boolean {
  const type = req.headers['content-type'];
  if (type === undefined || plainJsonTypes.has(type.toLowerCase())) return true;
  return Boolean(req.is('application/json')) || Boolean(req.is('+json'));
}

/**
 * A charset the Content-Type declares other than UTF-8, which JSON is (RFC 8259, section 8.1).
 * Reading such bytes as UTF-8 would take other text than the client sent; express.json, as the
 * generated servers use it, refuses them with a 415 too.
 */
function declaredCharset(req: Request): string | undefined {
  const type = req.headers['content-type'];
  if (type === undefined || plainJsonTypes.has(type.toLowerCase())) return undefined;
  const charset = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(type);
  const name = charset?.[1] ?? charset?.[2];
  return name === undefined || /^utf-?8$/i.test(name) ? undefined : name;
}

/**
 * What went wrong reading a body, as the family's 4xx. The readers (streamed-body.ts) mark the
 * client's faults with a 4xx status and body-parser's `type` names (zlib errors of a body that
 * does not decode included); anything else is passed on as it is, a fault of the mock.
 */
function readFailure(error: unknown, family: FamilyName, req: Request): unknown {
  const codes = families[family].codes;
  const { type, status } = (typeof error === 'object' && error !== null ? error : {}) as { type?: unknown; status?: unknown };
  const encoding = req.get('content-encoding');
  if (type === 'entity.too.large' || status === 413) return new HttpError(codes.payloadTooLarge, 'The request body is too large.');
  if (type === 'encoding.unsupported' || status === 415) {
    return new HttpError(codes.unsupportedMediaType, `The request body's encoding (${encoding ?? 'its charset'}) is not supported.`);
  }
  if (typeof status !== 'number' || status < 400 || status >= 500) return error;
  if (type === 'request.aborted') return new HttpError(codes.badRequest, 'The request body was cut off.');
  return new HttpError(codes.badRequest, encoding === undefined ? 'The request body cannot be read.' : `The request body cannot be decoded as ${encoding}.`);
}
