// A date-time field of a control request as epoch milliseconds (date-time-ms.ts), or 422
// validation_error naming the field. Handlers read such fields before they create anything, so
// a refused one leaves nothing behind.
import { readDateTime } from '../date-time-ms.js';
import { HttpError } from '../http/http-error.js';

/** `field` as the router names it (`body.expires_at`). */
export function dateTimeField(text: string, field: string): number {
  const read = readDateTime(text);
  if ('refused' in read) throw new HttpError('validation_error', 'The given data was invalid.', { [field]: [read.refused] });
  return read.ms;
}
