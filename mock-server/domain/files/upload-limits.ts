// The limits of upload intents, read from the v3 contract (generated/exchange-v3/openapi.yaml) and
// the upload-intent machine rather than restated: the defaults a request may leave null, the
// ceiling of max_bytes (also the commit's body limit, answered with 413 beyond it), the file
// part's field and the media types it may declare, and the intent's lifetime.
import { uploadIntentMachine } from '../../../generated/machines.js';
import { bundledDocument } from '../../bundled-contracts.js';

export interface UploadLimits {
  /** Extensions accepted when the request leaves allowed_extensions null. */
  defaultExtensions: readonly string[];
  /** max_bytes when the request leaves it null. */
  defaultMaxBytes: number;
  /** The largest max_bytes, and the largest file a commit reads (beyond it: 413). */
  ceilingBytes: number;
  /** The media types the multipart `file` part may declare (the operation's encoding). */
  partContentTypes: readonly string[];
  /** From creation to expires_at (the machine's ttl timer). */
  ttlSeconds: number;
  /** The longest file name a committed file keeps (UploadedFile.name). */
  nameMaxLength: number;
  /** The multipart field of the file (CommitUploadIntentRequest's one required property). */
  filePart: string;
}

let cached: UploadLimits | undefined;

export function uploadLimits(): UploadLimits {
  cached ??= read(bundledDocument('exchange-v3') as ContractDocument);
  return cached;
}

interface SchemaNode {
  required?: unknown;
  maximum?: unknown;
  maxLength?: unknown;
  default?: unknown;
  properties?: Record<string, SchemaNode>;
}

interface ContractDocument {
  paths?: Record<string, Record<string, { operationId?: string; requestBody?: { content?: Record<string, { encoding?: Record<string, { contentType?: unknown }> }> } }>>;
  components?: { schemas?: Record<string, SchemaNode> };
}

function read(document: ContractDocument): UploadLimits {
  const schemas = document.components?.schemas ?? {};
  // What a request that leaves a limit null gets: the request schema's `default` of each field.
  const fields = schemas.CreateUploadIntentRequest?.properties ?? {};
  const defaultExtensions = fields.allowed_extensions?.default;
  const defaultMaxBytes = fields.max_bytes?.default;
  const ceilingBytes = schemas.UploadIntent?.properties?.max_bytes?.maximum;
  if (!Array.isArray(defaultExtensions) || !defaultExtensions.every((e) => typeof e === 'string') || typeof defaultMaxBytes !== 'number') {
    throw new Error('v3 contract: CreateUploadIntentRequest.allowed_extensions or max_bytes has no default');
  }
  if (typeof ceilingBytes !== 'number' || defaultMaxBytes > ceilingBytes) throw new Error('v3 contract: UploadIntent.max_bytes has no usable maximum');
  const ttlSeconds = uploadIntentMachine.timers.ttl?.seconds;
  if (ttlSeconds === undefined) throw new Error('the upload-intent machine lacks its ttl timer');
  const nameMaxLength = schemas.UploadedFile?.properties?.name?.maxLength;
  if (typeof nameMaxLength !== 'number') throw new Error('v3 contract: UploadedFile.name has no maxLength');
  const commitRequired = schemas.CommitUploadIntentRequest?.required;
  if (!Array.isArray(commitRequired) || commitRequired.length !== 1 || typeof commitRequired[0] !== 'string') {
    throw new Error('v3 contract: CommitUploadIntentRequest must require exactly one (file) part');
  }
  return { defaultExtensions, defaultMaxBytes, ceilingBytes, partContentTypes: commitPartTypes(document), ttlSeconds, nameMaxLength, filePart: commitRequired[0] };
}

function commitPartTypes(document: ContractDocument): string[] {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (operation?.operationId !== 'commitUploadIntent') continue;
      const declared = operation.requestBody?.content?.['multipart/form-data']?.encoding?.file?.contentType;
      if (typeof declared === 'string') return declared.split(',').map((type) => type.trim()).filter((type) => type !== '');
    }
  }
  throw new Error('v3 contract: commitUploadIntent declares no encoding for its file part');
}
