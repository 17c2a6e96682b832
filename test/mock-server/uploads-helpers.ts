// Shared by the upload and verification suites: files with real signatures, FormData bodies for
// commitUploadIntent, and an intent created and committed in one step.
import { createHash } from 'node:crypto';
import type { ExchangeV3Client } from '../../generated/exchange-v3/client.js';
import type { CommitUploadIntentRequest, CreateUploadIntentRequest, UploadIntent } from '../../generated/exchange-v3/types.js';

const signatures = {
  jpeg: [0xff, 0xd8, 0xff, 0xe0],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  pdf: [...Buffer.from('%PDF-1.7')],
} as const;

/** `size` bytes starting with the format's signature (the rest zeros). */
export function fileBytes(format: keyof typeof signatures, size = 256): Buffer {
  const bytes = Buffer.alloc(size);
  Buffer.from(signatures[format]).copy(bytes);
  return bytes;
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The multipart body of a commit: one `file` part (a File keeps its name) and any extra parts. */
export function filePart(name: string, bytes: Buffer, type = 'image/jpeg', extra: Record<string, string> = {}): CommitUploadIntentRequest {
  // Extra parts are outside the typed body on purpose: the mock must refuse them.
  return { file: new File([bytes], name, { type }), ...extra } as CommitUploadIntentRequest;
}

export async function createIntent(client: ExchangeV3Client, body: Partial<CreateUploadIntentRequest> = {}): Promise<UploadIntent> {
  const created = await client.createUploadIntent({ body: { purpose: 'identity_verification', ...body } });
  return created.body.result.upload_intent;
}

/** A committed intent holding a small JPEG (or the given file). */
export async function uploaded(
  client: ExchangeV3Client,
  body: Partial<CreateUploadIntentRequest> = {},
  file: { name: string; bytes: Buffer; type: string } = { name: 'photo.jpg', bytes: fileBytes('jpeg'), type: 'image/jpeg' },
): Promise<UploadIntent> {
  const intent = await createIntent(client, body);
  const committed = await client.commitUploadIntent({ path: { intent: intent.uuid }, body: filePart(file.name, file.bytes, file.type) });
  return committed.body.result.upload_intent;
}
