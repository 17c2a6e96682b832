// Requests the generated clients never send (a body that is not JSON, not of the operation's
// media type or over the contract's size limit; a path or a method no operation has), sent with
// the run's credentials for the family, signed over the exact bytes, and recorded in the run's
// exchange log like every other answer.
import type { Family } from '../contract/families.js';
import type { CallOutcome, RunContext } from '../context.js';

export interface RawRequest {
  method: string;
  url: URL;
  contentType?: string;
  body?: string;
}

/** The recorded answer (undefined when none arrived). Throws when the run has no credentials for the family. */
export async function sendRaw(context: RunContext, family: Family, request: RawRequest): Promise<CallOutcome<Response>> {
  const headers = new Headers(request.contentType === undefined ? {} : { 'content-type': request.contentType });
  const signed = { method: request.method, url: request.url, headers, body: request.body };
  if (!(await context.authenticate(family.name, signed))) throw new Error(`no credentials for ${family.contract}`);
  const outcome = await context.call(() => context.exchanges.fetch(request.url, { method: request.method, headers, body: request.body ?? null }));
  await outcome.value?.body?.cancel(); // the exchange log kept the text
  return outcome;
}
