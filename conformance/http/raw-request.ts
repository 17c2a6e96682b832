// Requests the generated clients never send (a body that is not JSON, not of the operation's
// media type or over the contract's size limit; a path or a method no operation has), sent with
// the run's credentials for the family, signed over the exact bytes, and recorded in the run's
// exchange log like every other answer.
import type { Family } from '../contract/families.js';
import type { RunContext } from '../context.js';
import type { RecordedExchange } from './exchange-log.js';
import { sendPaced } from './paced-request.js';

export interface RawRequest {
  method: string;
  url: URL;
  contentType?: string;
  body?: string;
  /** A body the server may refuse on its announced length: sent paced (paced-request.ts). */
  paced?: boolean;
}

/** The recorded answer (undefined when none arrived). Throws when the run has no credentials for the family. */
export async function sendRaw(context: RunContext, family: Family, request: RawRequest): Promise<{ exchange: RecordedExchange | undefined; error: unknown }> {
  const { method, url, body } = request;
  const headers = new Headers(request.contentType === undefined ? {} : { 'content-type': request.contentType });
  if (!(await context.authenticate(family.name, { method, url, headers, body }))) throw new Error(`no credentials for ${family.contract}`);
  if (request.paced !== true || body === undefined) {
    const { exchange, value, error } = await context.call(() => context.exchanges.fetch(url, { method, headers, body: body ?? null }));
    await value?.body?.cancel(); // the exchange log kept the text
    return { exchange, error };
  }
  try {
    const answer = await sendPaced(url, method, headers, body);
    const exchange: RecordedExchange = { method, url, requestHeaders: headers, requestBody: body, ...answer };
    context.exchanges.record(exchange);
    return { exchange, error: undefined };
  } catch (error) {
    return { exchange: undefined, error };
  }
}
