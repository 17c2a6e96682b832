// What a committed file is, judged from its first bytes (never from what the client declares),
// and whether it fits an intent: the checks of commitUploadIntent that answer 422 with
// error.details.file. The mock keeps only the file's size, digest, name and detected type.
import { uploadLimits } from './upload-limits.js';

/** Enough leading bytes to recognise every signature below. */
export const sniffBytes = 8;

interface Signature {
  contentType: string;
  magic: Buffer;
  /** The extensions whose files must carry this signature. */
  extensions: readonly string[];
}

// The document formats of the default extensions (jpg, jpeg, png, pdf); a client that allows
// another extension gets its files through unchecked, as application/octet-stream.
const signatures: readonly Signature[] = [
  { contentType: 'image/jpeg', magic: Buffer.from([0xff, 0xd8, 0xff]), extensions: ['jpg', 'jpeg'] },
  { contentType: 'image/png', magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), extensions: ['png'] },
  { contentType: 'application/pdf', magic: Buffer.from('%PDF-', 'latin1'), extensions: ['pdf'] },
];
const unknownContent = 'application/octet-stream';

for (const type of [...signatures.map((s) => s.contentType), unknownContent]) {
  if (!uploadLimits().partContentTypes.includes(type)) throw new Error(`v3 contract: commitUploadIntent's file encoding lacks ${type}`);
}

/** What the multipart part carried, reduced to what the checks and the record need. */
export interface ReceivedFile {
  name: string;
  /** The part's own Content-Type header. */
  declaredType: string;
  size: number;
  sha256: string;
  /** The first sniffBytes bytes. */
  head: Buffer;
}

/** The media type the content shows, or application/octet-stream. */
export function detectContentType(head: Buffer): string {
  return signatures.find((s) => head.subarray(0, s.magic.length).equals(s.magic))?.contentType ?? unknownContent;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Every reason the file does not fit the intent's limits; empty when it does. */
export function fileProblems(file: ReceivedFile, limits: { allowedExtensions: readonly string[]; maxBytes: number }): string[] {
  const problems: string[] = [];
  const extension = extensionOf(file.name);
  if (!limits.allowedExtensions.includes(extension)) {
    problems.push(`the extension ${extension === '' ? '(none)' : `.${extension}`} is not accepted; send one of: ${limits.allowedExtensions.join(', ')}`);
  }
  if (file.name.length > uploadLimits().nameMaxLength) problems.push(`the file name is longer than ${uploadLimits().nameMaxLength} characters`);
  if (file.size === 0) problems.push('is empty');
  if (file.size > limits.maxBytes) problems.push(`is ${file.size} bytes; this intent accepts at most ${limits.maxBytes}`);
  const declared = file.declaredType.split(';')[0]!.trim().toLowerCase();
  if (!uploadLimits().partContentTypes.includes(declared)) {
    problems.push(`the part's content type ${declared || '(none)'} is not accepted; send one of: ${uploadLimits().partContentTypes.join(', ')}`);
  }
  const expected = signatures.find((s) => s.extensions.includes(extension));
  if (expected !== undefined && file.size > 0 && detectContentType(file.head) !== expected.contentType) {
    problems.push(`the content is not ${expected.contentType} as the extension .${extension} says`);
  }
  return problems;
}
