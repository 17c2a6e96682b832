// Reads the one file part of a multipart/form-data body (commitUploadIntent) as it streams in:
// its name, declared type, size, SHA-256 and first bytes, never the whole content. The platform
// leaves multipart bodies unread (http/body.ts), so this is where their media type, form and
// size limit are enforced: not multipart/form-data → 415, unparseable → 400, a file beyond the
// ceiling → 413, a missing file part or any other part → 422 with details per part.
import busboy from 'busboy';
import type { Request } from 'express';
import { createHash } from 'node:crypto';
import { sniffBytes, type ReceivedFile } from '../domain/files/file-content.js';
import type { families } from '../http/families.js';
import { HttpError } from '../http/http-error.js';

type Codes = (typeof families)['v3']['codes'];

export interface FilePartOptions {
  /** The form field that carries the file (the request schema's only property). */
  field: string;
  /** Beyond this many bytes the file is not read further and the answer is 413. */
  ceilingBytes: number;
  codes: Codes;
}

export function readFilePart(req: Request, options: FilePartOptions): Promise<ReceivedFile> {
  const { field, ceilingBytes, codes } = options;
  if (!req.is('multipart/form-data')) {
    req.resume();
    return Promise.reject(new HttpError(codes.unsupportedMediaType, 'Send the file as multipart/form-data.'));
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // One file part is expected; a few parts more are read only to name them in the error.
      parser = busboy({ headers: req.headers, limits: { fileSize: ceilingBytes, files: 1, parts: 16, fieldSize: 1024 } });
    } catch {
      req.resume();
      reject(new HttpError(codes.badRequest, 'The multipart body cannot be parsed (is the boundary missing?).'));
      return;
    }
    const details: Record<string, string[]> = {};
    const problem = (name: string, message: string) => (details[`body.${name}`] ??= []).push(message);
    let received: Promise<ReceivedFile> | undefined;
    let tooLarge = false;

    parser.on('file', (name, stream, info) => {
      if (name !== field || received !== undefined) {
        problem(name, name === field ? 'send exactly one file' : 'is not allowed');
        stream.resume();
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
        stream.on('end', () => done({ name: info.filename ?? '', declaredType: info.mimeType, size, sha256: hash.digest('hex'), head: Buffer.concat(head) }));
      });
    });
    parser.on('field', (name) => problem(name, name === field ? 'must be a file part (with a file name)' : 'is not allowed'));
    parser.on('filesLimit', () => problem(field, 'send exactly one file'));
    parser.on('partsLimit', () => problem(field, 'send only the file part'));
    parser.on('error', () => {
      req.unpipe(parser);
      req.resume();
      reject(new HttpError(codes.badRequest, 'The multipart body cannot be parsed.'));
    });
    parser.on('close', () => {
      void (async () => {
        const file = await received;
        if (tooLarge) return reject(new HttpError(codes.payloadTooLarge, `The file exceeds the server's limit of ${ceilingBytes} bytes.`));
        if (file === undefined && details[`body.${field}`] === undefined) problem(field, 'is required');
        if (file === undefined || Object.keys(details).length > 0) return reject(new HttpError(codes.validation, 'The multipart body is not a single file part.', details));
        resolve(file);
      })();
    });
    // A client that goes away mid-upload leaves nothing waiting.
    req.once('close', () => {
      if (!req.complete) reject(new HttpError(codes.badRequest, 'The upload was cut off.'));
    });
    req.pipe(parser);
  });
}
