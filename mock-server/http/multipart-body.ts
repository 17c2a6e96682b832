// Reads a multipart/form-data body (commitUploadIntent) as it streams in: the SHA-256 of all its
// bytes (boundaries and part headers included: what the v3 signature covers), its parts as the
// idempotency fingerprint compares them (field name, file name, type, content SHA-256; not the
// boundary), and its one file part reduced to name, declared type, size, SHA-256 and first
// bytes, never the whole content. Transport failures are errors at once: not
// multipart/form-data or an unknown Content-Encoding → 415, unparseable or undecodable → 400,
// a body beyond the file ceiling (plus room for the form around it) → 413. A form that is not
// exactly the one file part is an outcome, 422 with details per part, for the handler to answer
// once the request's signature has been checked like any body's.
import busboy from 'busboy';
import type { Request } from 'express';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FormPart, ReadForm } from '../../generated/runtime/request-fingerprint.js';
import { sniffBytes, type ReceivedFile } from '../domain/files/file-content.js';
import { decodedBody } from './content-encoding.js';
import { HttpError } from './http-error.js';

/** The family's codes of the failures an upload can have (http/families.ts). */
interface Codes {
  badRequest: string;
  unsupportedMediaType: string;
  payloadTooLarge: string;
  validation: string;
}

/** Room for the boundaries, part headers and the few small parts around the file. */
export const multipartOverheadBytes = 64 * 1024;

export interface FilePartOptions {
  /** The form field that carries the file (the request schema's only property). */
  field: string;
  /** Beyond this many bytes the file is not read further and the answer is 413. */
  ceilingBytes: number;
  codes: Codes;
}

export type FilePart = { file: ReceivedFile; invalid?: undefined } | { file?: undefined; invalid: HttpError };

export interface MultipartBody {
  /** Hex SHA-256 of the body's bytes, decoded. */
  sha256: string;
  /** Every part read, in order, for the idempotency fingerprint. */
  form: ReadForm;
  part: FilePart;
}

export function readMultipartBody(req: Request, options: FilePartOptions): Promise<MultipartBody> {
  const { field, ceilingBytes, codes } = options;
  if (!req.is('multipart/form-data')) return Promise.reject(new HttpError(codes.unsupportedMediaType, 'Send the file as multipart/form-data.'));
  const source = decodedBody(req);
  if (source === undefined) return Promise.reject(new HttpError(codes.unsupportedMediaType, 'The request body encoding is not supported.'));
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // One file part is expected; a few parts more are read only to name them in the error.
      parser = busboy({ headers: req.headers, limits: { fileSize: ceilingBytes, files: 1, parts: 16, fieldSize: 1024 } });
    } catch {
      reject(new HttpError(codes.badRequest, 'The multipart body cannot be parsed (is the boundary missing?).'));
      return;
    }
    let failed = false;
    const fail = (error: HttpError): void => {
      if (failed) return;
      failed = true;
      // The rest streams into nothing; the error answer closes the connection (families.ts).
      source.unpipe(parser);
      source.removeAllListeners('data');
      source.resume();
      reject(error);
    };
    const bodyHash = createHash('sha256');
    const maxBodyBytes = ceilingBytes + multipartOverheadBytes;
    let bodyBytes = 0;
    source.on('data', (chunk: Buffer) => {
      bodyHash.update(chunk);
      bodyBytes += chunk.length;
      if (bodyBytes > maxBodyBytes) fail(new HttpError(codes.payloadTooLarge, `The upload exceeds the server's limit of ${ceilingBytes} bytes.`));
    });
    source.on('error', () => fail(new HttpError(codes.badRequest, 'The request body cannot be decoded.')));

    const details: Record<string, string[]> = {};
    const problem = (name: string, message: string) => (details[`body.${name}`] ??= []).push(message);
    let received: Promise<ReceivedFile> | undefined;
    let tooLarge = false;
    const parts: FormPart[] = [];
    // Set when the parser left some of the form unread (past a limit): the fingerprint says so,
    // since such a form is not the same request as its parts read without the rest.
    let truncated = false;
    // The parts besides the file, hashed for the fingerprint alone (a form that has them is refused).
    const extraHashes: Promise<void>[] = [];

    parser.on('file', (name, stream, info) => {
      // A form cut off inside a part fails the part's stream as well as the parser: unheard, that
      // error would end the process.
      stream.on('error', () => fail(new HttpError(codes.badRequest, 'The multipart body ends inside a part.')));
      const part: FormPart = { name, filename: info.filename ?? null, contentType: info.mimeType, sha256: '' };
      parts.push(part);
      if (name !== field || received !== undefined) {
        problem(name, name === field ? 'send exactly one file' : 'is not allowed');
        stream.on('limit', () => (truncated = true));
        extraHashes.push(contentSha256(stream).then((sha256) => void (part.sha256 = sha256)));
        return;
      }
      received = new Promise((done) => {
        const hash = createHash('sha256');
        const head: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          if (size < sniffBytes) head.push(chunk.subarray(0, sniffBytes - size));
          size += chunk.length;
          hash.update(chunk);
        });
        stream.on('limit', () => (tooLarge = true));
        stream.on('end', () => {
          part.sha256 = hash.digest('hex');
          done({ name: info.filename ?? '', declaredType: info.mimeType, size, sha256: part.sha256, head: Buffer.concat(head) });
        });
      });
    });
    parser.on('field', (name, value, info) => {
      parts.push({ name, filename: null, contentType: info.mimeType, sha256: createHash('sha256').update(value).digest('hex') });
      if (info.nameTruncated || info.valueTruncated) truncated = true;
      problem(name, name === field ? 'must be a file part (with a file name)' : 'is not allowed');
    });
    parser.on('filesLimit', () => {
      truncated = true;
      problem(field, 'send exactly one file');
    });
    parser.on('partsLimit', () => {
      truncated = true;
      problem(field, 'send only the file part');
    });
    parser.on('error', () => fail(new HttpError(codes.badRequest, 'The multipart body cannot be parsed.')));
    parser.on('close', () => {
      if (failed) return; // answered already; a part that failed never ends
      void (async () => {
        const file = await received;
        await Promise.all(extraHashes);
        if (tooLarge) return reject(new HttpError(codes.payloadTooLarge, `The file exceeds the server's limit of ${ceilingBytes} bytes.`));
        const sha256 = bodyHash.digest('hex');
        const form: ReadForm = { parts, truncated };
        if (file === undefined && details[`body.${field}`] === undefined) problem(field, 'is required');
        if (file === undefined || Object.keys(details).length > 0) {
          return resolve({ sha256, form, part: { invalid: new HttpError(codes.validation, 'The multipart body is not a single file part.', details) } });
        }
        resolve({ sha256, form, part: { file } });
      })();
    });
    // A client that goes away mid-upload leaves nothing waiting.
    req.once('close', () => {
      if (!req.complete) reject(new HttpError(codes.badRequest, 'The upload was cut off.'));
    });
    source.pipe(parser);
  });
}

/** Hex SHA-256 of a part's content as it streams by. */
function contentSha256(stream: Readable): Promise<string> {
  return new Promise((done) => {
    const digest = createHash('sha256');
    stream.on('data', (chunk: Buffer) => digest.update(chunk));
    stream.on('end', () => done(digest.digest('hex')));
  });
}
