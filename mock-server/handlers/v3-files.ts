// The v3 upload intents (description 2.8): create, read, and commit a file as multipart/form-data.
// A file committed to an intent that names a verification becomes one of its documents.
import type { ExchangeV3Handlers } from '../../generated/exchange-v3/routes.js';
import type { DocumentKind } from '../../generated/exchange-v3/types.js';
import type { HandlerContext } from '../../generated/runtime/router-runtime.js';
import type { UploadIntentRecord } from '../domain/files/upload-intent-service.js';
import { uploadLimits } from '../domain/files/upload-limits.js';
import type { Details } from '../domain/verifications/verification-service.js';
import { HttpError } from '../http/http-error.js';
import { requestLocals } from '../http/locals.js';
import { v3Success } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';
import { clientOf } from './v3-request.js';

// The resource types the description names for an intent (createUploadIntent): what resource_id then refers to.
const ORDER_RESOURCE = 'order';
const VERIFICATION_RESOURCE = 'verification';

export function fileHandlers(sandbox: Sandbox): Pick<ExchangeV3Handlers, 'createUploadIntent' | 'getUploadIntent' | 'commitUploadIntent'> {
  const { clock } = sandbox;
  const uploads = () => sandbox.services.uploads;
  const present = (intent: UploadIntentRecord) => ({ upload_intent: uploads().view(intent) });
  const intentOf = (context: HandlerContext, uuid: string) => {
    const intent = uploads().get(clientOf(context), uuid);
    if (intent === undefined) throw new HttpError('not_found', 'No upload intent of this client has this uuid.');
    return intent;
  };

  /** A resource the intent names must be the client's (and a verification must take the file). */
  const targetProblems = (clientId: string, body: { purpose: string; resource_type?: string | null; resource_id?: string | null; field_key?: string | null }): Details | null => {
    const { resource_type: type = null, resource_id: id = null } = body;
    if (type !== ORDER_RESOURCE && type !== VERIFICATION_RESOURCE) return null;
    if (id === null) return { 'body.resource_id': [`is required with resource_type ${type}`] };
    if (type === ORDER_RESOURCE) return sandbox.services.orders.find(clientId, id) === undefined ? { 'body.resource_id': ['no order of yours has this id'] } : null;
    return sandbox.services.verifications.uploadTargetProblems(clientId, { verificationId: id, fieldKey: body.field_key ?? null, purpose: body.purpose });
  };

  return {
    createUploadIntent: (request, context) => {
      const body = request.body;
      const clientId = clientOf(context);
      const problems = targetProblems(clientId, body);
      if (problems !== null) throw new HttpError('validation_error', 'The resource the file is for cannot take it.', problems);
      const intent = uploads().create(clientId, {
        purpose: body.purpose,
        resourceType: body.resource_type ?? null,
        resourceId: body.resource_id ?? null,
        fieldKey: body.field_key ?? null,
        allowedExtensions: body.allowed_extensions ?? null,
        maxBytes: body.max_bytes ?? null,
      });
      return v3Success('createUploadIntent', context, clock, 201, present(intent));
    },

    getUploadIntent: (request, context) => v3Success('getUploadIntent', context, clock, 200, present(intentOf(context, request.path.intent))),

    commitUploadIntent: (request, context) => {
      const intent = intentOf(context, request.path.intent);
      const limits = uploadLimits();
      // The platform read the upload before the signature check (http/body.ts).
      const upload = requestLocals(context.res).upload;
      // No body at all: nothing was read (a wrong media type with a body is refused while reading).
      if (upload === undefined) throw new HttpError('unsupported_media_type', 'Send the file as multipart/form-data.');
      if (upload.invalid !== undefined) throw upload.invalid;
      const file = upload.file;
      const outcome = uploads().commit(intent, file);
      if (!outcome.ok && outcome.refused === 'state') throw new HttpError('invalid_state_transition', outcome.reason, { status: [intent.status] });
      if (!outcome.ok) throw new HttpError('validation_error', 'The file does not meet the upload intent’s limits.', { [`body.${limits.filePart}`]: outcome.problems });
      if (intent.resourceType === VERIFICATION_RESOURCE && intent.resourceId !== null && intent.fieldKey !== null) {
        // createUploadIntent checked field_key against the verification's document kinds.
        sandbox.services.verifications.attachUpload(intent, intent.resourceId, intent.fieldKey as DocumentKind);
      }
      return v3Success('commitUploadIntent', context, clock, 200, present(intent));
    },
  };
}
