// signDepositRequest (control API, tag Credentials): the v1 `hmac` headers of one request, made
// by the generated clients' own signer on the mock's virtual clock, as the default site, as one
// of the mock's sites by its API key, or with credentials given as they are. The /docs page's
// "Try it out" signs its deposit v1 requests with it.
import { createHmacSigner, depositV1SignatureScheme } from '../../generated/deposit-v1/client.js';
import type { SandboxControlHandlers } from '../../generated/sandbox-control/routes.js';
import type { SignDepositRequestRequest } from '../../generated/sandbox-control/types.js';
import { HttpError } from '../http/http-error.js';
import { controlSuccess } from '../http/respond.js';
import type { Sandbox } from '../sandbox.js';

/** Any origin: the signature covers the path and query only. */
const anyOrigin = 'http://mock.invalid';

export function signatureControlHandlers(sandbox: Sandbox): Pick<SandboxControlHandlers, 'signDepositRequest'> {
  return {
    signDepositRequest: async (request, context) => {
      const { body } = request;
      const credentials = credentialsOf(sandbox, body);
      const signer = createHmacSigner(depositV1SignatureScheme, credentials, { now: () => sandbox.clock.nowMs() });
      const headers = new Headers();
      // Appended to the origin, not resolved against it: a path starting `//` is a path here, not
      // another host (which new URL(path, base) would take it for, and throw on a bad one).
      await signer({ method: body.method, url: new URL(anyOrigin + body.path), headers, body: body.body });
      const site = sandbox.sites.find(credentials.key);
      return controlSuccess('signDepositRequest', context, sandbox.clock, 200, {
        // By the scheme's names, in the scheme's case (Headers keeps them lower-cased).
        headers: Object.fromEntries(Object.values(depositV1SignatureScheme.headers).flatMap((name) => (headers.has(name) ? [[name, headers.get(name)!]] : []))),
        site_id: site !== undefined && site.apiSecret === credentials.secret ? site.id : null,
      });
    },
  };
}

function credentialsOf(sandbox: Sandbox, body: SignDepositRequestRequest): { key: string; secret: string } {
  if (body.api_secret !== undefined) {
    if (body.api_key === undefined) throw new HttpError('validation_error', 'The given data was invalid.', { 'body.api_key': ['is required with api_secret'] });
    return { key: body.api_key, secret: body.api_secret };
  }
  const site = body.api_key === undefined ? sandbox.defaultSite : sandbox.sites.find(body.api_key);
  if (site === undefined) throw new HttpError('validation_error', 'The given data was invalid.', { 'body.api_key': ['no site of this mock has this API key'] });
  return { key: site.apiKey, secret: site.apiSecret };
}
